import { refuseOptions } from '../errors.js';
import { commandRunOptionIssues } from '../ports/command-run-checks.js';
import type { CommandResult, CommandRunner, CommandRunOptions } from '../ports/command-runner.js';
import { answerIssues, checkFakeResponses } from './fake-command-checks.js';
import { raceAbort } from './scripted-stage-runner.js';

/**
 * What a fake command answers: part of a {@link CommandResult} (the rest takes
 * the values of a quick successful run), or a function computing it.
 *
 * @public
 */
export type FakeCommandResponse =
  | Partial<CommandResult>
  | ((command: string, options: CommandRunOptions) => Partial<CommandResult> | Promise<Partial<CommandResult>>);

/**
 * One matching rule: an exact command line, a pattern, or a predicate.
 *
 * @public
 */
export interface FakeCommandRule {
  readonly match: string | RegExp | ((command: string) => boolean);
  readonly respond: FakeCommandResponse;
}

/**
 * One call a fake command runner received.
 *
 * @public
 */
export interface FakeCommandCall {
  readonly command: string;
  readonly options: CommandRunOptions;
}

/**
 * A {@link CommandRunner} that answers from a table and records its calls.
 *
 * @public
 */
export interface FakeCommandRunner extends CommandRunner {
  /** Every call received, in order. */
  readonly calls: readonly FakeCommandCall[];
}

/**
 * Creates a command runner that runs nothing: each command line is answered by
 * the first matching rule (a record maps exact command lines; a list of rules
 * also allows patterns and predicates). An unknown command exits 127 with
 * `command not found`. Like the real runner it never rejects on a command:
 * an aborted signal (before or while a response function runs) yields
 * `aborted: true` with `exitCode: null`. A mistake in the table is refused
 * instead of answered as a quick successful run: an unknown result field
 * (`exitcode`, with the field it most likely misspells) or one of the wrong
 * type throws `INVALID_OPTIONS` naming its path when the runner is made, and
 * rejects the call when a response function answers it. The options of each
 * call are checked as the execa runner checks them, so a test sees the refusal
 * production would give: wrong options (absent, a `timeoutMs` of `"500"`, a
 * misspelt `timeoutMS`) reject the call with `INVALID_OPTIONS` naming each
 * path, and the call is not recorded.
 *
 * @example
 * ```ts
 * import { createFakeCommandRunner } from 'goal-loop/testing';
 * const commands = createFakeCommandRunner({
 *   'npm run docs:check': { exitCode: 1, stderrTail: 'broken link' },
 *   'npm test': () => ({ exitCode: 0, durationMs: 1200 }),
 * });
 * ```
 * @public
 */
export function createFakeCommandRunner(
  responses: Readonly<Record<string, FakeCommandResponse>> | readonly FakeCommandRule[] = {},
): FakeCommandRunner {
  checkFakeResponses(responses);
  const rules: readonly FakeCommandRule[] = Array.isArray(responses)
    ? (responses as readonly FakeCommandRule[])
    : Object.entries(responses as Readonly<Record<string, FakeCommandResponse>>).map(([match, respond]) => ({
        match,
        respond,
      }));
  const calls: FakeCommandCall[] = [];

  return {
    calls,
    async run(command, options) {
      refuseOptions('createFakeCommandRunner run', commandRunOptionIssues(options));
      calls.push({ command, options });
      const { signal } = options;
      if (signal?.aborted) return complete({ exitCode: null, aborted: true });
      const rule = rules.find((candidate) => matches(candidate.match, command));
      if (rule === undefined)
        return complete({ exitCode: 127, stderrTail: `${command.split(/\s/)[0] ?? command}: command not found` });
      const { respond } = rule;
      if (typeof respond !== 'function') return complete(respond);
      const answer = await untilAborted(
        Promise.resolve().then(() => respond(command, options)),
        signal,
      );
      if (answer === 'aborted') return complete({ exitCode: null, aborted: true });
      refuseOptions('createFakeCommandRunner', answerIssues(answer, [command]));
      return complete(answer);
    },
  };
}

// True when a rule's matcher accepts the command line.
function matches(match: FakeCommandRule['match'], command: string): boolean {
  if (typeof match === 'string') return match === command;
  if (match instanceof RegExp) return new RegExp(match.source, match.flags.replace(/[gy]/g, '')).test(command);
  return match(command);
}

// Fills a partial result with the values of a quick successful run.
function complete(partial: Partial<CommandResult>): CommandResult {
  return { exitCode: 0, timedOut: false, aborted: false, durationMs: 0, stdoutTail: '', stderrTail: '', ...partial };
}

// Resolves with the work's value, or 'aborted' as soon as the signal aborts.
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | 'aborted'> {
  if (signal === undefined) return work;
  return raceAbort<T | 'aborted'>(work, signal).catch((error: unknown) => {
    if (signal.aborted) return 'aborted' as const;
    throw error;
  });
}
