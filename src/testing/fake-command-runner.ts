import { refuseOptions } from '../errors.js';
import { commandRunOptionIssues } from '../ports/command-run-checks.js';
import type { CommandResult, CommandRunner, CommandRunOptions } from '../ports/command-runner.js';
import { answerIssues, checkFakeResponses } from './fake-command-checks.js';
import { raceAbort } from './scripted-stage-runner.js';

/**
 * What a fake command answers: part of a `CommandResult` (the rest takes the values of a quick successful run),
 * or a function computing it. @public
 */
export type FakeCommandResponse =
  | Partial<CommandResult>
  | ((command: string, options: CommandRunOptions) => Partial<CommandResult> | Promise<Partial<CommandResult>>);

/**
 * One matching rule: an exact command line, a pattern, or a predicate, and its answer (or its answers, one per call, in
 * order: the last repeats). @public
 */
export interface FakeCommandRule {
  readonly match: string | RegExp | ((command: string) => boolean);
  readonly respond: FakeCommandResponse | readonly FakeCommandResponse[];
}

/** One call a fake command runner received. @public */
export interface FakeCommandCall {
  readonly command: string;
  readonly options: CommandRunOptions;
}

/** A `CommandRunner` that answers from a table and records its calls. @public */
export interface FakeCommandRunner extends CommandRunner {
  /** Every call received, in order. */
  readonly calls: readonly FakeCommandCall[];
}

/**
 * Creates a command runner that runs nothing: each command line is answered by the first matching rule (a record maps
 * exact command lines; a list of rules also allows patterns and predicates). @public
 */
export function createFakeCommandRunner(
  responses:
    | Readonly<Record<string, FakeCommandResponse | readonly FakeCommandResponse[]>>
    | readonly FakeCommandRule[] = {},
): FakeCommandRunner {
  checkFakeResponses(responses);
  const rules: readonly FakeCommandRule[] = Array.isArray(responses)
    ? (responses as readonly FakeCommandRule[])
    : Object.entries(responses as Readonly<Record<string, FakeCommandRule['respond']>>).map(([match, respond]) => ({
        match,
        respond,
      }));
  const calls: FakeCommandCall[] = [];
  // How many calls each rule has answered: the cursor of a rule with a list of answers.
  const answered = rules.map(() => 0);

  return {
    calls,
    async run(command, options) {
      refuseOptions('createFakeCommandRunner run', commandRunOptionIssues(options));
      calls.push({ command, options });
      const { signal } = options;
      if (signal?.aborted) return complete({ exitCode: null, aborted: true });
      const index = rules.findIndex((candidate) => matches(candidate.match, command));
      const rule = rules[index];
      if (rule === undefined)
        return complete({ exitCode: 127, stderrTail: `${command.split(/\s/)[0] ?? command}: command not found` });
      const call = answered[index] ?? 0;
      answered[index] = call + 1;
      const respond = nextAnswer(rule.respond, call);
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

// The answer of a rule's call number `call` (from 0): its one answer, or that item of its list (never empty: the
// table is checked), the last once the list is used up.
function nextAnswer(respond: FakeCommandRule['respond'], call: number): FakeCommandResponse {
  if (!Array.isArray(respond)) return respond as FakeCommandResponse;
  return respond[Math.min(call, respond.length - 1)] as FakeCommandResponse;
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
