import type { Tracing } from '../ports/open-telemetry.js';
import { SpanScope } from '../ports/span-scope.js';
import type { StageRunReason } from '../ports/stage-runner.js';
import { endWith } from '../runtime/spans.js';
import type { GoalEvaluation } from './core/evaluate.js';
import type { LoopStepResult } from './loop-result.js';
import type { StageCallResult } from './stage-call.js';

// How the loop's spans are named.
const LOOP_SPANS = {
  run: 'goal_loop.run',
  iteration: 'goal_loop.iteration',
  stage: 'goal_loop.stage',
  evaluation: 'goal_loop.evaluation',
} as const;

// What the run's span says of the session from its start.
interface RunAttributes {
  readonly runDir: string;
  readonly mode: 'run' | 'step';
  readonly maxIterations: number;
}

// The attributes an evaluation gives the span that made it or decided on it.
const evaluationAttributes = (evaluation: GoalEvaluation | null) => ({
  'goal_loop.status': evaluation?.status,
  'goal_loop.score': evaluation?.score,
  'goal_loop.critical_count': evaluation?.criticalCount,
});

/** The spans of one session (docs/tracing.md): an iteration's span ends with the loop's decision on it. @internal */
export class LoopTrace {
  private iterationSpan: SpanScope | null = null;
  private iterationNumber = -1;

  private constructor(private readonly run: SpanScope) {}

  /** Runs one session under the run's span, which ends with the session's result or its error. */
  static async around(
    tracing: Tracing,
    attributes: RunAttributes,
    session: (trace: LoopTrace) => Promise<LoopStepResult>,
  ): Promise<LoopStepResult> {
    const trace = LoopTrace.start(tracing, attributes);
    return endWith(
      trace.run,
      () => session(trace),
      (result) => trace.finished(result),
      (error) => trace.iterationSpan?.endWithError(error),
    );
  }

  // Opens the run's span.
  private static start(tracing: Tracing, attributes: RunAttributes): LoopTrace {
    const run = SpanScope.start(
      tracing,
      LOOP_SPANS.run,
      {
        'goal_loop.run_dir': attributes.runDir,
        'goal_loop.mode': attributes.mode,
        'goal_loop.max_iterations': attributes.maxIterations,
      },
      { kind: 'workflow', name: 'goal-loop' },
    );
    return new LoopTrace(run);
  }

  /** Starts a stage's span under iteration `iteration`'s. */
  stage(iteration: number, stage: string, reason: StageRunReason): SpanScope {
    return this.iteration(iteration).child(
      LOOP_SPANS.stage,
      { 'goal_loop.stage': stage, 'goal_loop.iteration': iteration, 'goal_loop.stage_reason': reason.kind },
      { kind: 'agent', name: stage },
    );
  }

  /**
   * Ends a stage's span with how it finished: its status, cost and duration; a
   * failed stage is an ERROR span with the runner's error (or the detail)
   * recorded; an `aborted` call is a stage the loop's abort cut off.
   */
  stageFinished(span: SpanScope, result: StageCallResult, durationMs: number): void {
    if (result.kind === 'aborted') {
      span.end({
        'goal_loop.status': 'aborted',
        'goal_loop.cost_usd': result.costUsd,
        'goal_loop.duration_ms': durationMs,
      });
      return;
    }
    const { outcome } = result;
    if (outcome.status === 'failed') span.fail(outcome.detail ?? 'the stage failed', result.thrown);
    span.end({
      'goal_loop.status': outcome.status,
      'goal_loop.cost_usd': outcome.costUsd ?? 0,
      'goal_loop.duration_ms': durationMs,
    });
  }

  /** Runs `work` (gathering and evaluating) under an evaluation span of iteration `iteration`. */
  async evaluation(iteration: number, work: () => Promise<GoalEvaluation>): Promise<GoalEvaluation> {
    const span = this.iteration(iteration).child(LOOP_SPANS.evaluation, { 'goal_loop.iteration': iteration });
    return endWith(span, work, evaluationAttributes);
  }

  /** Ends the open iteration's span with the loop's decision on it (`retry` or a stop reason). */
  decided(decision: string, evaluation: GoalEvaluation | null, rerunStages?: readonly string[]): void {
    // An evaluation of an earlier iteration (a budget stop after a stage) says nothing of this one.
    const own = evaluation?.iteration === this.iterationNumber ? evaluation : null;
    this.iterationSpan?.end({
      'goal_loop.decision': decision,
      ...evaluationAttributes(own),
      'goal_loop.rerun_stages': rerunStages?.join(','),
    });
    this.iterationSpan = null;
  }

  // What the run's span says of the session's result (the open iteration's span ended first).
  private finished(result: LoopStepResult) {
    this.iterationSpan?.end();
    return {
      'goal_loop.decision': result.stoppedOn ?? 'retry',
      'goal_loop.iteration': result.iteration,
      'goal_loop.iterations': result.iterations,
      'goal_loop.cost_usd': result.spentUsd,
      ...evaluationAttributes(result.evaluation),
    };
  }

  // The span of iteration `n`, opened on first use (ending a span left open by an earlier iteration).
  private iteration(n: number): SpanScope {
    if (this.iterationSpan !== null && this.iterationNumber === n) return this.iterationSpan;
    this.iterationSpan?.end();
    this.iterationNumber = n;
    this.iterationSpan = this.run.child(LOOP_SPANS.iteration, { 'goal_loop.iteration': n });
    return this.iterationSpan;
  }
}
