import { z } from 'zod';
import { type Issue, issuesFromZod, optionShapeOf, refuseOptions } from '../errors.js';
import { isInside, normalizePath } from '../kit/paths.js';
import { unknownKeyIssue, unknownKeys } from '../kit/unknown-keys.js';
import type { Clock } from '../ports/clock.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Tracer } from '../ports/tracer.js';
import type { ListenerErrorHandler } from '../runtime/event-feed.js';
import type { LoopEvent } from './contracts/events.js';
import type { GoalInput } from './contracts/goal.js';
import type { AskJudges } from './core/precedence.js';
import type { StageRunner } from './stage-runner.js';

/**
 * Options of {@link GoalLoop}.
 *
 * @public
 */
export interface GoalLoopOptions {
  /** The project's filesystem; every path is relative to its root. */
  readonly fs: FileSystem;
  /** The run directory, relative to the filesystem root (e.g. `.goal-loop/runs/r-42`). */
  readonly runDir: string;
  /** The pipeline's stage ids, in order. */
  readonly stages: readonly string[];
  /** Runs a stage (calls your agent). */
  readonly runner: StageRunner;
  /** Runs `command` criteria; without it they stay PENDING. */
  readonly commands?: CommandRunner;
  /** The goal; when absent, `<runDir>/goal.json`, else the default goal. */
  readonly goal?: GoalInput;
  /** Iterations per session (default 3), clamped to 20. */
  readonly maxIterations?: number;
  /** Stop once this many USD are spent in the run (checked before each iteration and after every stage). */
  readonly budgetUsd?: number;
  /** Time source (default: `systemClock`). */
  readonly clock?: Clock;
  /** Aborts the loop: stage runners and commands get it; the session stays resumable. */
  readonly signal?: AbortSignal;
  /** Receives every event as appended; what it throws goes to `onListenerError` and the loop goes on. */
  readonly onEvent?: (event: LoopEvent) => void;
  /** Receives what `onEvent` threw, with the event (default: one `console.warn` line per throw). */
  readonly onListenerError?: ListenerErrorHandler<LoopEvent>;
  /**
   * Where the spans go (`goal_loop.run` → `goal_loop.iteration` → `goal_loop.stage` / `goal_loop.evaluation`).
   * Default: OpenTelemetry's global tracer when `@opentelemetry/api` is installed, else none.
   */
  readonly tracer?: Tracer;
  /** Also give the spans OpenTelemetry's GenAI attributes (docs/tracing.md). Default `false`. */
  readonly genAiAttributes?: boolean;
  /** Command criteria run at most this many at once (default: the command runner's `concurrency`, the number of CPUs for the execa runner; else 4). */
  readonly concurrency?: number;
  /** Continue an unfinished session even though goal.json changed since it started. */
  readonly acceptGoalChange?: boolean;
  /**
   * When a judge criterion without a fresh verdict stops the loop `ask_user`: `last` (default) only once nothing
   * else would rerun, so a human never judges work about to be regenerated; `first` as rstack-agents does.
   */
  readonly askJudges?: AskJudges;
  /**
   * The feedback stage's id, rerun after the stages a RETRY names (default `11-feedback-loop`); one that is not in
   * `stages` is `INVALID_OPTIONS`.
   */
  readonly feedbackStage?: string;
  /**
   * A lock whose heartbeat is older than this, or than the holder's own timeout, whichever is smaller, is stale and
   * taken over (default 10 minutes). A lock whose holder ran on this host and whose process is gone is taken over at once.
   */
  readonly lockTimeoutMs?: number;
  /** A stage's time limit in ms, one for all or per stage id: an overrun is `failed` ("timed out"), its signal aborted. */
  readonly stageTimeoutMs?: number | Readonly<Record<string, number>>;
}

const fn = (name: string) =>
  z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
    message: `${name} must be a function`,
  });
const port = (name: string, methods: readonly string[]) =>
  z.custom(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
    {
      message: `${name} must implement ${methods.join(', ')}`,
    },
  );

// Every option has an entry (checked against GoalLoopOptions), so a key outside it is a misspelling, never ignored.
const optionShape = optionShapeOf<GoalLoopOptions>()({
  fs: port('fs', [
    'readText',
    'writeText',
    'appendText',
    'truncate',
    'createExclusive',
    'stat',
    'readBytes',
    'realpath',
    'remove',
    'rename',
  ]),
  runDir: z
    .string()
    .min(1)
    .refine((dir) => !dir.startsWith('/') && isInside(dir, '.') && normalizePath(dir) !== '.', {
      message: 'runDir must be a relative path inside the filesystem root',
    }),
  stages: z
    .array(z.string().min(1))
    .min(1, 'stages must name at least one stage')
    .refine((stages) => new Set(stages).size === stages.length, { message: 'stages must not repeat a stage id' }),
  runner: port('runner', ['run']),
  commands: port('commands', ['run']).optional(),
  goal: z.unknown().optional(),
  maxIterations: z.int().min(1).optional(),
  budgetUsd: z.number().min(0).optional(),
  clock: port('clock', ['now', 'sleep']).optional(),
  signal: z
    .custom<AbortSignal>((value) => typeof value === 'object' && value !== null && 'aborted' in value, {
      message: 'signal must be an AbortSignal',
    })
    .optional(),
  onEvent: fn('onEvent').optional(),
  onListenerError: fn('onListenerError').optional(),
  tracer: port('tracer', ['startSpan']).optional(),
  genAiAttributes: z.boolean().optional(),
  concurrency: z.int().min(1).optional(),
  acceptGoalChange: z.boolean().optional(),
  askJudges: z.enum(['last', 'first']).optional(),
  feedbackStage: z.string().min(1).optional(),
  lockTimeoutMs: z.int().min(1).optional(),
  stageTimeoutMs: z.union([z.int().min(1), z.record(z.string(), z.int().min(1))]).optional(),
});
const optionsSchema = z.object(optionShape);
const OPTION_KEYS = Object.keys(optionShape);

/** One `INVALID_OPTIONS` with every wrong value and unknown key (with a did-you-mean); nothing silently ignored. @internal */
export function validateLoopOptions(options: GoalLoopOptions): void {
  const parsed = optionsSchema.safeParse(options);
  const extra = unknownKeys(options, OPTION_KEYS).map(unknownKeyIssue);
  const unknownStages = [...unknownTimeoutStages(options), ...unknownFeedbackStage(options)];
  refuseOptions('GoalLoop', [...extra, ...(parsed.success ? [] : issuesFromZod(parsed.error)), ...unknownStages]);
}

// A per-stage time limit for a stage the pipeline does not have is a mistake, not a no-op.
function unknownTimeoutStages(options: GoalLoopOptions): Issue[] {
  const limits = (options as Partial<GoalLoopOptions> | null)?.stageTimeoutMs;
  if (typeof limits !== 'object' || limits === null || !Array.isArray(options.stages)) return [];
  return Object.keys(limits)
    .filter((stage) => !options.stages.includes(stage))
    .map((stage) => ({
      code: 'unknown_stage',
      path: ['stageTimeoutMs', stage],
      message: `stageTimeoutMs names ${stage}, which is not a stage of the pipeline`,
    }));
}

// A feedback stage outside the pipeline would never rerun, so its report would never be refreshed: a mistake.
function unknownFeedbackStage(options: GoalLoopOptions): Issue[] {
  const { feedbackStage, stages } = (options ?? {}) as Partial<GoalLoopOptions>;
  if (typeof feedbackStage !== 'string' || feedbackStage === '' || !Array.isArray(stages)) return [];
  if (stages.includes(feedbackStage)) return [];
  return [
    {
      code: 'unknown_stage',
      path: ['feedbackStage'],
      message: `feedbackStage must be one of the stages (${stages.join(', ')}); ${JSON.stringify(feedbackStage)} is not`,
    },
  ];
}

/** The time limit of one stage under the `stageTimeoutMs` option (none when undefined). @internal */
export function stageTimeout(option: GoalLoopOptions['stageTimeoutMs'], stage: string): number | undefined {
  return typeof option === 'number' ? option : option?.[stage];
}
