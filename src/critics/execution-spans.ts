import type { Tracing } from '../ports/open-telemetry.js';
import { SpanScope } from '../ports/span-scope.js';
import { endWith } from '../runtime/spans.js';
import type { StagedResult } from './contracts/result.js';
import type { RouteAction, TraceRecord } from './contracts/trace.js';
import type { ExecutionEffect } from './core/machine.js';

// How the staged pipeline's spans are named.
const CRITICS_SPANS = {
  execution: 'critics.execution',
  attempt: 'critics.stage_attempt',
  generator: 'critics.generator',
  critic: 'critics.critic',
} as const;

type CallEffect = Extract<ExecutionEffect, { kind: 'generate' | 'judge' }>;

// What the pipeline did, as one attribute value: accept, retry, route_back, accept_with_gaps or escalate.
const decisionOf = (action: RouteAction | null): string | undefined => action?.kind;

/** The spans of one call of `run()` or `step()` (docs/tracing.md), their attributes taken from the committed records. @internal */
export class ExecutionSpans {
  private attempt: { readonly key: string; readonly span: SpanScope } | null = null;
  // The call in progress, ended as failed if the pipeline's call rejects during it (an abort).
  private open: SpanScope | null = null;

  private constructor(private readonly execution: SpanScope) {}

  /** Runs one call of the pipeline under the execution's span, which ends with its result or error. */
  static async around<T extends { readonly done: boolean; readonly result?: StagedResult }>(
    tracing: Tracing,
    attributes: { readonly executionId: string; readonly mode: 'run' | 'step' },
    work: (spans: ExecutionSpans) => Promise<T>,
  ): Promise<T> {
    const execution = SpanScope.start(
      tracing,
      CRITICS_SPANS.execution,
      { 'critics.execution_id': attributes.executionId, 'critics.mode': attributes.mode },
      { kind: 'workflow', name: 'staged-pipeline' },
    );
    const spans = new ExecutionSpans(execution);
    return endWith(
      execution,
      () => work(spans),
      (step) => {
        spans.attempt?.span.end();
        return step.result !== undefined ? resultAttributes(step.result) : { 'critics.status': 'running' };
      },
      (error) => {
        spans.open?.endWithError(error);
        spans.attempt?.span.endWithError(error);
      },
    );
  }

  /** Opens the span of a generator or critic call, under its stage attempt's span (opened on the generator call). */
  call(effect: CallEffect): SpanScope {
    const key = `${effect.stage}#${effect.attempt}`;
    if (this.attempt?.key !== key) {
      this.attempt?.span.end();
      const span = this.execution.child(CRITICS_SPANS.attempt, {
        'critics.stage': effect.stage,
        'critics.attempt': effect.attempt,
      });
      this.attempt = { key, span };
    }
    const generates = effect.kind === 'generate';
    this.open = this.attempt.span.child(
      generates ? CRITICS_SPANS.generator : CRITICS_SPANS.critic,
      { 'critics.stage': effect.stage, 'critics.attempt': effect.attempt },
      { kind: 'agent', name: generates ? effect.stage : `${effect.stage}.critic` },
    );
    return this.open;
  }

  /**
   * Ends a call's span with the records its turn committed, and the stage
   * attempt's span once the next call is not its critic.
   */
  called(span: SpanScope, records: readonly TraceRecord[], next: ExecutionEffect): void {
    this.open = null;
    const record = records.find((each) => each.kind === 'generated' || each.kind === 'judged');
    if (record?.kind === 'generated') {
      if (record.error !== undefined) span.fail(record.error);
      span.end({
        'critics.status': record.error === undefined ? 'ok' : 'failed',
        'critics.cost_usd': record.costUsd,
        'critics.duration_ms': record.durationMs,
        'critics.decision': decisionOf(record.action),
      });
      this.attempt?.span.set({ 'critics.decision': decisionOf(record.action) });
    } else if (record?.kind === 'judged') {
      if (record.invalid !== undefined) span.fail(record.invalid);
      span.end({
        'critics.verdict': record.decision,
        'critics.decision': decisionOf(record.action),
        'critics.score': record.confidence,
        'critics.issues': record.issues.length,
        'critics.cost_usd': record.costUsd,
        'critics.duration_ms': record.durationMs,
      });
      this.attempt?.span.set({ 'critics.verdict': record.decision, 'critics.decision': decisionOf(record.action) });
    } else span.end();
    if (next.kind !== 'judge') {
      this.attempt?.span.end();
      this.attempt = null;
    }
  }
}

// What the execution span says of how the execution ended.
function resultAttributes(result: StagedResult) {
  return {
    'critics.status': result.status,
    'critics.escalation': result.escalation ?? undefined,
    'critics.backtracks': result.backtracks,
    'critics.cost_usd': result.spentUsd,
  };
}
