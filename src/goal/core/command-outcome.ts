import type { CommandResult } from '../../ports/command-runner.js';
import type { CommandCriterion } from '../contracts/goal.js';
import type { CriterionFact } from './facts.js';

/** What the shell gathered for a command criterion: the result, or why it did not run. @public */
export type CommandFactOutcome = Extract<CriterionFact, { kind: 'command' }>['outcome'];

/** The parts of a criterion evaluation a command outcome decides. @public */
export interface CommandVerdict {
  readonly status: 'PASS' | 'FAIL' | 'PENDING';
  readonly detail: string;
  readonly summary?: string;
  /** The exit code, when the command ran. */
  readonly observed?: unknown;
  readonly durationMs?: number;
  readonly outputTail?: string;
}

/** How much of a command's output an evaluation keeps, in characters. @public */
export const OUTPUT_TAIL_CHARS = 2000;

/** Evaluates a `command` criterion from what the shell gathered: PASS iff the exit code equals `expect_exit_code`. @public */
export function evaluateCommandOutcome(criterion: CommandCriterion, outcome: CommandFactOutcome): CommandVerdict {
  if (outcome.state === 'skipped')
    return {
      status: 'PENDING',
      summary: outcome.summary ?? 'command skipped',
      detail: `\`${criterion.command}\` was not run: ${outcome.detail}.`,
    };
  const result = outcome.result;
  const ran = { observed: result.exitCode, durationMs: result.durationMs, outputTail: outputTail(result) };
  const tail = ran.outputTail === '' ? '' : `; output ends: ${lastLine(ran.outputTail)}`;
  const expected = criterion.expect_exit_code;
  if (result.startError !== undefined) {
    return {
      ...ran,
      status: 'FAIL',
      summary: 'could not start',
      detail: `\`${criterion.command}\` could not start: ${result.startError}.`,
    };
  }
  if (result.timedOut) {
    return {
      ...ran,
      status: 'FAIL',
      summary: `timed out after ${criterion.timeout_ms} ms`,
      detail: `\`${criterion.command}\` timed out after ${criterion.timeout_ms} ms${killed(result)}${tail}.`,
    };
  }
  if (result.aborted)
    return {
      ...ran,
      status: 'PENDING',
      summary: 'aborted',
      detail: `\`${criterion.command}\` was aborted after ${Math.round(result.durationMs)} ms${killed(result)}.`,
    };
  if (result.exitCode === null) {
    return {
      ...ran,
      status: 'FAIL',
      summary: 'killed without an exit code',
      detail: `\`${criterion.command}\` ended without an exit code after ${Math.round(result.durationMs)} ms${killed(result)}${tail}.`,
    };
  }
  const passed = result.exitCode === expected;
  const summary =
    passed || expected === 0 ? `exit code ${result.exitCode}` : `exit code ${result.exitCode}, expected ${expected}`;
  const detail = `\`${criterion.command}\` exited ${result.exitCode} (expected ${expected}) in ${Math.round(result.durationMs)} ms${killed(result)}${passed ? '' : tail}.`;
  return { ...ran, status: passed ? 'PASS' : 'FAIL', summary, detail };
}

// What the runner says it killed or cut off, as a clause (none when it says nothing): a process it left running
// (detached, holding the output) is worth knowing whatever the exit code.
function killed(result: CommandResult): string {
  return result.detail === undefined || result.detail === '' ? '' : ` (${result.detail})`;
}

// The end of a command's output: standard error when it has any, else standard output.
function outputTail(result: CommandResult): string {
  const text = result.stderrTail.trim() !== '' ? result.stderrTail : result.stdoutTail;
  return text.length > OUTPUT_TAIL_CHARS ? text.slice(-OUTPUT_TAIL_CHARS) : text;
}

/** The last non-empty line of a command's output, shortened for a one-sentence detail (`''` when there is none). @internal */
export function lastLine(text: string): string {
  const line = text.trimEnd().split('\n').pop()?.trim() ?? '';
  return line.length > 200 ? `…${line.slice(-199)}` : line;
}
