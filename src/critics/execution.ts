import { GoalLoopError, isGoalLoopError } from '../errors.js';
import { hashJson } from '../kit/hash.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { OutboxCommit } from '../runtime/outbox.js';
import type { JsonValue } from './contracts/decision.js';
import type { ExecutionState } from './contracts/execution-state.js';
import type { StagedResult } from './contracts/result.js';
import type { TraceRecord } from './contracts/trace.js';
import { type ExecutionStep, effectOf, type MachineConfig, transition } from './core/machine.js';
import { initialExecutionState, resultOf } from './core/start.js';
import type { ExecutionSpans } from './execution-spans.js';
import { type CallContext, callCritic, callGenerator } from './host-calls.js';
import { foldLateCosts, recordLateCost } from './late-costs.js';
import type { StageDefinition } from './options.js';
import { type ExecutionPaths, readTrace } from './trace-file.js';

/** What a `step()` reports: the execution ended (with its result), or the next call it would make. @public */
export type StagedStepResult =
  | { readonly done: true; readonly result: StagedResult }
  | {
      readonly done: false;
      readonly next: { readonly kind: 'generate' | 'judge'; readonly stage: string; readonly attempt: number };
    };

/** Everything an execution works with. @internal */
export interface ExecutionDeps extends CallContext {
  readonly fs: FileSystem;
  readonly paths: ExecutionPaths;
  readonly commit: OutboxCommit<ExecutionState, TraceRecord>;
  readonly stages: readonly StageDefinition[];
  readonly config: MachineConfig;
  readonly clock: Clock;
  /** The spans of this call of the pipeline (no-op without a tracer). */
  readonly spans: ExecutionSpans;
  /** Throws `RUN_LOCKED` when the execution's lock is no longer this call's. */
  readonly fence: () => Promise<void>;
}

/** One execution: calls what the state names, asks the pure {@link transition}, commits state then trace. @internal */
export class Execution {
  private constructor(
    private readonly deps: ExecutionDeps,
    private state: ExecutionState,
  ) {}

  /** Loads the record (delivering its outbox, folding late costs in) or creates it for `spec`. */
  static async open(deps: ExecutionDeps, executionId: string, spec: JsonValue): Promise<Execution> {
    const { commit } = deps;
    const saved = await commit.store.load();
    const specHash = hashJson(spec);
    if (saved !== null && saved.spec_hash !== specHash) {
      throw new GoalLoopError(
        'INVALID_OPTIONS',
        `Execution ${executionId} was started with another spec (${deps.paths.state}); use a new executionId.`,
      );
    }
    if (saved !== null) await commit.deliver(saved);
    // A first call cut off before anything was committed may have left a late cost too.
    const state = saved ?? (await Execution.initial(deps, executionId, spec, specHash));
    return new Execution(deps, await foldLateCosts({ ...deps, dir: deps.paths.dir }, state));
  }

  // The record of an execution that has not run yet.
  private static async initial(
    deps: ExecutionDeps,
    executionId: string,
    spec: JsonValue,
    specHash: string,
  ): Promise<ExecutionState> {
    const nextSeq = (await deps.commit.log.lastSequence()) + 1;
    const ts = new Date(deps.clock.now()).toISOString();
    return initialExecutionState({ executionId, spec, specHash, nextSeq, ts });
  }

  /** Makes calls until the execution ends (`once`: until one generator-plus-critic turn is over). */
  async drive(once: boolean): Promise<StagedStepResult> {
    const { deps } = this;
    let effect = effectOf(this.state, deps.config);
    while (effect.kind !== 'finish') {
      const stage = deps.stages[this.state.stage_index];
      if (stage === undefined) throw new Error('unreachable: a running execution is at a stage');
      const span = deps.spans.call(effect);
      // A const, so that its narrowing to a generator or critic call holds inside the callback.
      const call = effect;
      const input = await span.within(() =>
        call.kind === 'generate'
          ? callGenerator(stage, call, this.state, deps, span)
          : callCritic(stage, call, this.state, deps, span),
      );
      const step = transition(this.state, input, deps.config);
      // Saved, the record holds the call's cost; only a save the lost lock refused leaves the cost to park.
      await deps.commit.save(step.state).catch((error: unknown) => parkCallCost(error, step, deps));
      await deps.commit.deliver(step.state);
      this.state = step.state;
      deps.spans.called(span, step.state.outbox, step.effect);
      effect = step.effect;
      // Late costs that arrived meanwhile (a call another process was cut off from) count before a generator call.
      if (effect.kind === 'generate') {
        this.state = await foldLateCosts({ ...deps, dir: deps.paths.dir }, this.state);
        effect = effectOf(this.state, deps.config);
      }
      if (once && effect.kind !== 'judge' && effect.kind !== 'finish') {
        return { done: false, next: { kind: effect.kind, stage: effect.stage, attempt: effect.attempt } };
      }
    }
    return { done: true, result: resultOf(this.state, await readTrace(deps.fs, deps.paths.trace)) };
  }
}

/** A call whose save `RUN_LOCKED` refused still spent: park its cost as a late cost, then rethrow. */
async function parkCallCost(error: unknown, step: ExecutionStep, deps: ExecutionDeps): Promise<never> {
  const record = step.records.find((each) => each.kind === 'generated' || each.kind === 'judged');
  if (isGoalLoopError(error, 'RUN_LOCKED') && record !== undefined && 'attempt' in record) {
    const call = record.kind === 'generated' ? 'generate' : 'judge';
    await recordLateCost(deps.lateCostTarget, { stage: record.stage, attempt: record.attempt, call }, record.costUsd);
  }
  throw error;
}
