import { z } from 'zod';
import { issuesFromZod, optionShapeOf, refuseOptions } from '../errors.js';
import { unknownKeyIssue, unknownKeys } from '../kit/unknown-keys.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Tracer } from '../ports/tracer.js';
import type { ListenerErrorHandler } from '../runtime/event-feed.js';
import type { CriticDecisionInput, CriticIssue, GeneratorResult, JsonValue } from './contracts/decision.js';
import type { Gap, Judgement } from './contracts/execution-state.js';
import type { TraceRecord } from './contracts/trace.js';
import type { CriticVariant, OnBudgetSpent } from './core/route.js';
import type { Standing } from './core/standing-gate.js';
import { type ProbationOptions, standingIssues, standingOptionShape } from './standing-options.js';

/**
 * Why a generator runs now: the first pass, a retry (with the critic's issues), or a route back (with the routing
 * reason and that critic's issues, told to every stage that runs again); and the gaps accepted upstream.
 *
 * @public
 */
export interface GeneratorFeedback {
  readonly kind: 'initial' | 'retry' | 'route_back';
  readonly issues: readonly CriticIssue[];
  readonly reason: string | null;
  readonly gaps: readonly Gap[];
}

/** What a stage's generator receives. @public */
export interface GeneratorInput {
  readonly stageId: string;
  readonly spec: JsonValue;
  /** The accepted outputs of the earlier stages, by stage id. */
  readonly accepted: Readonly<Record<string, JsonValue>>;
  readonly feedback: GeneratorFeedback;
  /** This stage's generator call number in the execution (1, 2, …). */
  readonly attempt: number;
  readonly signal: AbortSignal;
}

/** What a stage's critic receives: the output, the spec, every accepted output and every earlier judgement. @public */
export interface CriticInput {
  readonly stageId: string;
  readonly output: JsonValue;
  readonly spec: JsonValue;
  readonly accepted: Readonly<Record<string, JsonValue>>;
  readonly judgements: readonly Judgement[];
  readonly attempt: number;
  readonly signal: AbortSignal;
}

/** A host generator: produces a stage's output. @public */
export type Generator = (input: GeneratorInput) => Promise<GeneratorResult>;

/** A host critic: judges a stage's output. @public */
export type Critic = (input: CriticInput) => Promise<CriticDecisionInput>;

/** One stage of a {@link StagedPipeline}. @public */
export interface StageDefinition {
  readonly id: string;
  readonly generate: Generator;
  /** Without a critic, the output is accepted as generated. */
  readonly critic?: Critic;
  /** Retries within the stage before `onBudgetSpent` applies (default 3). */
  readonly retryBudget?: number;
  /** What a spent retry budget does (default `accept_with_gaps`). */
  readonly onBudgetSpent?: OnBudgetSpent;
  /** Checks the accepts of the stage's critic while it is on probation (see `StagedPipelineOptions.standing`). */
  readonly secondCritic?: Critic;
}

/** Options of {@link StagedPipeline}. @public */
export interface StagedPipelineOptions {
  readonly fs: FileSystem;
  /** Executions live in `<dir>/<executionId>/`, relative to the filesystem root. */
  readonly dir: string;
  readonly stages: readonly StageDefinition[];
  /** Route backs per execution before it escalates as a spec problem (default 3). */
  readonly maxBacktracks?: number;
  /**
   * `route_back` (default) or `veto`: under veto critics only retry within their stage, and every `route_back` is
   * recorded as a retry with `vetoed: true`, whatever its `routeTo` names (see docs/critics.md).
   */
  readonly variant?: CriticVariant;
  /**
   * Each stage's critic standing by stage id (default full; see `criticStanding(...).byStage`): on probation a share of
   * accepts goes to `secondCritic`; revoked, the execution escalates `critic_revoked`.
   */
  readonly standing?: Readonly<Record<string, Standing>>;
  /** How the accepts of critics on probation are drawn for a check (default: every one). */
  readonly probation?: ProbationOptions;
  /** Escalates an execution (reason `budget`) once it has spent this many USD. */
  readonly budgetUsd?: number;
  readonly clock?: Clock;
  /**
   * Aborts the call in progress: `run()` and `step()` reject with the signal's reason and release the lock. The
   * execution stays resumable: the cut-off call is not recorded and is made again.
   */
  readonly signal?: AbortSignal;
  /**
   * Time limit of each generator and critic call, in ms (default 600 000): at the limit the call is aborted and counts
   * as failed (`generator_failed` or `critic_failed`, "timed out after N ms").
   */
  readonly hostCallTimeoutMs?: number;
  /**
   * Receives every trace record as appended, with `type` beside `kind` so one listener reads these and the loop's
   * events alike. What it throws goes to `onListenerError`, never to the run.
   */
  readonly onEvent?: (record: TraceRecord & { readonly type: TraceRecord['kind'] }) => void;
  /** Receives what `onEvent` threw, with the record (default: one `console.warn` line per throw). */
  readonly onListenerError?: ListenerErrorHandler<TraceRecord>;
  /**
   * Where the spans go (`critics.execution` → `critics.stage_attempt` → `critics.generator` / `critics.critic`).
   * Default: OpenTelemetry's global tracer when `@opentelemetry/api` is installed, else none.
   */
  readonly tracer?: Tracer;
  /** Also give the spans OpenTelemetry's GenAI attributes (docs/tracing.md). Default `false`. */
  readonly genAiAttributes?: boolean;
  /** A lock whose heartbeat is older than this is stale (default 600 000 ms, 10 minutes). A lock whose holder ran on this host and whose process is gone is taken over at once. */
  readonly lockTimeoutMs?: number;
}

const count = z.number().int().nonnegative();
const fn = z.function();
const object = (name: string) =>
  z.custom((value) => typeof value === 'object' && value !== null, { message: `${name} must be an object` });
// Every key has an entry (checked against the interfaces), so a key outside them is a misspelling, never ignored.
const stageShape = optionShapeOf<StageDefinition>()({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
  generate: fn,
  critic: fn.optional(),
  retryBudget: count.optional(),
  onBudgetSpent: z.enum(['accept_with_gaps', 'escalate']).optional(),
  secondCritic: fn.optional(),
});
const optionShape = optionShapeOf<StagedPipelineOptions>()({
  fs: object('fs'),
  dir: z.string().min(1),
  stages: z
    .array(z.object(stageShape))
    .min(1)
    .refine((stages) => new Set(stages.map((stage) => stage.id)).size === stages.length, 'stage ids must be unique'),
  maxBacktracks: count.optional(),
  variant: z.enum(['route_back', 'veto']).optional(),
  ...standingOptionShape,
  budgetUsd: z.number().nonnegative().optional(),
  clock: object('clock').optional(),
  signal: object('signal').optional(),
  lockTimeoutMs: z.number().int().positive().optional(),
  hostCallTimeoutMs: z.number().int().positive().optional(),
  onEvent: fn.optional(),
  onListenerError: fn.optional(),
  tracer: z
    .custom<Tracer>((value) => typeof (value as Tracer | null)?.startSpan === 'function', {
      message: 'tracer must implement startSpan',
    })
    .optional(),
  genAiAttributes: z.boolean().optional(),
});
const optionsSchema = z.object(optionShape);

// The unknown keys of the options and of each stage definition, with the known key each most likely misspells.
function unknownOptionKeys(options: StagedPipelineOptions) {
  const stages: unknown = (options as Partial<StagedPipelineOptions> | null)?.stages;
  const inStages = Array.isArray(stages)
    ? stages.flatMap((stage, index) => unknownKeys(stage, Object.keys(stageShape), ['stages', index]))
    : [];
  return [...unknownKeys(options, Object.keys(optionShape)), ...inStages].map(unknownKeyIssue);
}

/** `INVALID_OPTIONS` listing every issue with its path, unknown keys included. @internal */
export function validatePipelineOptions(options: StagedPipelineOptions): void {
  const parsed = optionsSchema.safeParse(options);
  refuseOptions('StagedPipeline', [
    ...unknownOptionKeys(options),
    ...(parsed.success ? [] : issuesFromZod(parsed.error)),
    ...standingIssues(options?.standing, options?.stages),
  ]);
}

/** An execution id is one safe path segment. @internal */
export const executionIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, {
  message: 'executionId must be one path segment of letters, digits, ".", "_" and "-" (at most 128)',
});
