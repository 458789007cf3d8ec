import type { CommandResult, CommandRunner, CommandRunOptions } from '../ports/command-runner.js';
import { resolveTracing } from '../ports/open-telemetry.js';
import { SpanScope } from '../ports/span-scope.js';
import type { Tracer } from '../ports/tracer.js';
import { endWith } from '../runtime/spans.js';
import type { FixLoopRunResult, FixStepResult } from './step-result.js';

// How the orchestrator's spans are named.
const FIX_LOOP_SPANS = {
  session: 'fix_loop.session',
  step: 'fix_loop.step',
  command: 'fix_loop.command',
} as const;

// What a step or a run says of the session once it is over.
const outcomeAttributes = (result: FixStepResult | FixLoopRunResult) => ({
  'fix_loop.status': result.status,
  'fix_loop.gap': result.gap?.gap,
  'fix_loop.escalation': result.escalation?.escalation_reason,
});

/** The spans of one call of the orchestrator (docs/tracing.md); a command that fails is an ERROR span. @internal */
export class FixLoopSpans {
  // The step in progress: its commands' spans go under it.
  private current: SpanScope | null = null;

  private constructor(private readonly session: SpanScope) {}

  /**
   * Runs one call of the orchestrator under the session's span, which ends with its result or error; `tracer` is
   * the host's, else OpenTelemetry's global one when installed.
   */
  static async around<T extends FixStepResult | FixLoopRunResult>(
    options: { readonly tracer?: Tracer | undefined; readonly genAiAttributes?: boolean | undefined },
    attributes: { readonly sessionId: string; readonly mode: 'step' | 'run' },
    work: (spans: FixLoopSpans) => Promise<T>,
  ): Promise<T> {
    const session = SpanScope.start(
      await resolveTracing(options),
      FIX_LOOP_SPANS.session,
      { 'fix_loop.session_id': attributes.sessionId, 'fix_loop.mode': attributes.mode },
      { kind: 'workflow', name: 'fix-loop' },
    );
    return endWith(
      session,
      () => work(new FixLoopSpans(session)),
      (result) => ({ ...outcomeAttributes(result), 'fix_loop.steps': 'stepsTaken' in result ? result.stepsTaken : 1 }),
    );
  }

  /** Runs one step under a step span. */
  async step(work: () => Promise<FixStepResult>): Promise<FixStepResult> {
    const span = this.session.child(FIX_LOOP_SPANS.step, {}, { kind: 'agent' });
    this.current = span;
    try {
      return await endWith(
        span,
        () => span.within(work),
        (result) => ({
          ...outcomeAttributes(result),
          'fix_loop.step_index': result.stepIndex,
          'fix_loop.action': result.action,
          'fix_loop.attempt_outcome': result.attempt?.outcome,
          'fix_loop.candidates': result.candidates?.length,
        }),
      );
    } finally {
      this.current = null;
    }
  }

  /** `runner`, with a command span for each run, under the step in progress (else the session). */
  commands(runner: CommandRunner): CommandRunner {
    const run = async (command: string, options: CommandRunOptions): Promise<CommandResult> => {
      const span = (this.current ?? this.session).child(
        FIX_LOOP_SPANS.command,
        { 'fix_loop.command': command },
        { kind: 'tool', name: command },
      );
      return endWith(
        span,
        () => runner.run(command, options),
        (result) => {
          if (result.exitCode !== 0) span.fail(failureOf(result));
          const { timedOut, durationMs } = result;
          return {
            'fix_loop.exit_code': result.exitCode ?? -1,
            'fix_loop.timed_out': timedOut,
            'fix_loop.duration_ms': durationMs,
          };
        },
      );
    };
    return runner.concurrency === undefined ? { run } : { concurrency: runner.concurrency, run };
  }
}

// One sentence of why a command failed.
function failureOf(result: CommandResult): string {
  if (result.startError !== undefined) return `the command could not start: ${result.startError}`;
  if (result.timedOut) return 'the command timed out';
  if (result.aborted) return 'the command was aborted';
  return `the command exited with code ${String(result.exitCode)}`;
}
