import type { CommandResult, CommandRunner, CommandRunOptions } from '../ports/command-runner.js';
import { resolveTracing } from '../ports/open-telemetry.js';
import { SpanScope } from '../ports/span-scope.js';
import type { Tracer } from '../ports/tracer.js';
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

/**
 * The spans of one call of the orchestrator (SPEC §12): `fix_loop.session`
 * (one `step()` or `runToCompletion()`) → `fix_loop.step` → `fix_loop.command`
 * (each build, test or probe command the step runs), each child started
 * under its parent explicitly. A step's span carries its action, the
 * session's status and gap after it, and the attempt's outcome; a command
 * that fails (non-zero exit, timeout, abort, no start) is an ERROR span.
 *
 * @internal
 */
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
    try {
      const result = await work(new FixLoopSpans(session));
      session.end({ ...outcomeAttributes(result), 'fix_loop.steps': 'stepsTaken' in result ? result.stepsTaken : 1 });
      return result;
    } catch (error) {
      session.endWithError(error);
      throw error;
    }
  }

  /** Runs one step under a step span. */
  async step(work: () => Promise<FixStepResult>): Promise<FixStepResult> {
    const span = this.session.child(FIX_LOOP_SPANS.step, {}, { kind: 'agent' });
    this.current = span;
    try {
      const result = await span.within(work);
      span.end({
        ...outcomeAttributes(result),
        'fix_loop.step_index': result.stepIndex,
        'fix_loop.action': result.action,
        'fix_loop.attempt_outcome': result.attempt?.outcome,
        'fix_loop.candidates': result.candidates?.length,
      });
      return result;
    } catch (error) {
      span.endWithError(error);
      throw error;
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
      try {
        const result = await runner.run(command, options);
        if (result.exitCode !== 0) span.fail(failureOf(result));
        span.end({
          'fix_loop.exit_code': result.exitCode ?? -1,
          'fix_loop.timed_out': result.timedOut,
          'fix_loop.duration_ms': result.durationMs,
        });
        return result;
      } catch (error) {
        span.endWithError(error);
        throw error;
      }
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
