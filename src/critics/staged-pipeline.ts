import { z } from 'zod';
import { optionShapeOf, refuseInvalidOptions } from '../errors.js';
import { type Clock, systemClock } from '../ports/clock.js';
import { resolveTracing } from '../ports/open-telemetry.js';
import { EventFeed, warnListenerError } from '../runtime/event-feed.js';
import { DEFAULT_HOST_CALL_TIMEOUT_MS } from '../runtime/host-call.js';
import { containPendingCostFolder } from '../runtime/pending-costs.js';
import { DEFAULT_LOCK_TIMEOUT_MS, withUnitOfWork } from '../runtime/unit-of-work.js';
import type { JsonValue } from './contracts/decision.js';
import { type ExecutionState, executionStateSchema } from './contracts/execution-state.js';
import type { StagedResult } from './contracts/result.js';
import type { TraceRecord } from './contracts/trace.js';
import type { MachineConfig } from './core/machine.js';
import { Execution, type StagedStepResult } from './execution.js';
import { ExecutionSpans } from './execution-spans.js';
import { executionIdSchema, type StagedPipelineOptions, validatePipelineOptions } from './options.js';
import { probationDraw, standingOf } from './standing-options.js';
import { executionPaths } from './trace-file.js';

/** What `run()` and `step()` take: the execution's id (a path segment), its spec (any JSON), and a signal for this call. @public */
export interface ExecutionRequest {
  readonly executionId: string;
  readonly spec: JsonValue;
  /** Aborts this call (instead of the pipeline's `signal`). */
  readonly signal?: AbortSignal;
}

// Every field has an entry (checked against ExecutionRequest), so a misspelt one is refused, never ignored.
const requestShape = optionShapeOf<ExecutionRequest>()({
  executionId: executionIdSchema,
  spec: z.custom<JsonValue>((value) => value !== undefined, { message: 'spec is required (any JSON value)' }),
  signal: z
    .custom<AbortSignal>((value) => typeof value === 'object' && value !== null && 'aborted' in value, {
      message: 'signal must be an AbortSignal',
    })
    .optional(),
});

/**
 * Staged critics: runs an execution's stages in order, each output judged by its critic (accept, retry, route back,
 * escalate) under retry, backtrack and USD budgets, so it always ends `completed` or `escalated`. Executions persist
 * in `<dir>/<executionId>/` and resume without repeating a finished call.
 *
 * @example
 * ```ts
 * import { StagedPipeline } from 'goal-loop/critics';
 * const pipeline = new StagedPipeline({
 *   fs, dir: '.goal-loop/critics',
 *   stages: [
 *     { id: 'plan', generate: planner, critic: planCritic, onBudgetSpent: 'accept_with_gaps' },
 *     { id: 'code', generate: coder, critic: codeCritic },
 *     { id: 'deploy', generate: deployer },
 *   ],
 *   maxBacktracks: 3,
 * });
 * const result = await pipeline.run({ executionId: 'feat-42', spec: { feature: 'login' } });
 * ```
 * @public
 */
export class StagedPipeline {
  private readonly clock: Clock;
  private readonly config: MachineConfig;
  private readonly lockTimeoutMs: number;
  private readonly feed: EventFeed<TraceRecord & { readonly type: TraceRecord['kind'] }>;

  /** Validates the options; a wrong value throws `INVALID_OPTIONS` naming each field. */
  constructor(private readonly options: StagedPipelineOptions) {
    validatePipelineOptions(options);
    this.clock = options.clock ?? systemClock;
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.config = {
      stages: options.stages.map((stage) => ({
        id: stage.id,
        hasCritic: stage.critic !== undefined,
        retryBudget: stage.retryBudget ?? 3,
        onBudgetSpent: stage.onBudgetSpent ?? 'accept_with_gaps',
        standing: standingOf(options.standing, stage.id),
        hasSecondCritic: stage.secondCritic !== undefined,
      })),
      maxBacktracks: options.maxBacktracks ?? 3,
      variant: options.variant ?? 'route_back',
      budgetUsd: options.budgetUsd,
      probation: probationDraw(options.probation),
    };
    this.feed = new EventFeed(options.onEvent, options.onListenerError ?? warnListenerError('StagedPipeline'));
  }

  /** The stage ids, in order. */
  get stageIds(): readonly string[] {
    return this.config.stages.map((stage) => stage.id);
  }

  /**
   * Runs (or resumes) the execution until it ends. Rejects with the signal's reason when aborted, at once even if a call
   * ignores its signal (that call is made again on resume); bad requests are `INVALID_OPTIONS`.
   */
  async run(request: ExecutionRequest): Promise<StagedResult> {
    const step = await this.traced(request, 'run', (execution) => execution.drive(false));
    if (!step.done) throw new Error('unreachable: a full run ended mid-way');
    return step.result;
  }

  /** Runs (or resumes) exactly one generator-plus-critic turn; the request is checked as `run()` checks it. */
  step(request: ExecutionRequest): Promise<StagedStepResult> {
    return this.traced(request, 'step', (execution) => execution.drive(true));
  }

  // One call under the execution's span.
  private async traced(
    request: ExecutionRequest,
    mode: 'run' | 'step',
    work: (execution: Execution) => Promise<StagedStepResult>,
  ): Promise<StagedStepResult> {
    refuseInvalidOptions(`StagedPipeline.${mode}()`, requestShape, request);
    const tracing = await resolveTracing(this.options);
    const attributes = { executionId: String(request.executionId), mode };
    return ExecutionSpans.around(tracing, attributes, (spans) => this.open(request, spans, work));
  }

  // Opens the execution under its lock and works with it.
  private open(
    request: ExecutionRequest,
    spans: ExecutionSpans,
    work: (execution: Execution) => Promise<StagedStepResult>,
  ): Promise<StagedStepResult> {
    const paths = executionPaths(this.options.dir, request.executionId);
    const spec = { fs: this.options.fs, lockPath: paths.lock, clock: this.clock, capability: 'goal-loop-critics' };
    return withUnitOfWork({ ...spec, lockTimeoutMs: this.lockTimeoutMs }, async (unit) => {
      const { fs } = unit;
      // Contained first: a pending folder that leads out of the project is refused, never swept.
      await unit.sweep(paths.dir, await containPendingCostFolder(fs, paths.dir));
      const publish = (record: TraceRecord) => this.feed.publish({ ...record, type: record.kind });
      const execution = await Execution.open(
        {
          fs,
          paths,
          commit: unit.commit<ExecutionState, TraceRecord>({
            state: paths.state,
            schema: executionStateSchema,
            log: paths.trace,
            onAppend: publish,
          }),
          stages: this.options.stages,
          config: this.config,
          clock: this.clock,
          signal: request.signal ?? this.options.signal ?? new AbortController().signal,
          hostCallTimeoutMs: this.options.hostCallTimeoutMs ?? DEFAULT_HOST_CALL_TIMEOUT_MS,
          heartbeat: unit.heartbeat,
          lateCostTarget: { fs, dir: paths.dir, executionId: request.executionId, clock: this.clock },
          fence: unit.fence,
          spans,
        },
        request.executionId,
        request.spec,
      );
      return await work(execution);
    });
  }
}
