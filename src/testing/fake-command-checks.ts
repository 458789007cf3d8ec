import { type Issue, optionKeyIssues, refuseOptions } from '../errors.js';
import type { CommandResult } from '../ports/command-runner.js';

type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';

// Every field of a result with its type: a misspelt field (`exitcode: 1`) would leave a quick successful run.
const RESULT_FIELDS = {
  exitCode: [(value) => value === null || Number.isInteger(value), 'an integer or null'],
  timedOut: [isBoolean, 'a boolean'],
  aborted: [isBoolean, 'a boolean'],
  durationMs: [(value) => typeof value === 'number' && value >= 0, 'a non-negative number'],
  stdoutTail: [isString, 'text'],
  stderrTail: [isString, 'text'],
  startError: [isString, 'text'],
  detail: [isString, 'text'],
} satisfies Record<keyof CommandResult, readonly [Check, string]>;
const RESULT_KEYS = Object.keys(RESULT_FIELDS);
// The keys of a FakeCommandRule (its file imports this one, so the type cannot be imported here).
const RULE_KEYS = ['match', 'respond'];

/**
 * The issues of a fake command's answer at `path`: each unknown field (with the field it most likely misspells) and
 * each field of the wrong type. @internal
 */
export function answerIssues(answer: unknown, path: readonly (string | number)[]): Issue[] {
  const issues = optionKeyIssues(answer, RESULT_KEYS, path);
  if (issues[0]?.code === 'invalid_type') return issues;
  for (const [field, [check, kind]] of Object.entries(RESULT_FIELDS)) {
    const value = (answer as Record<string, unknown>)[field];
    if (value !== undefined && !check(value))
      issues.push({ code: 'invalid_type', path: [...path, field], message: `${field} must be ${kind}` });
  }
  return issues;
}

// The issues of one response: a function (answers are checked when it answers) or a fixed answer.
function responseIssues(respond: unknown, path: readonly (string | number)[]): Issue[] {
  if (Array.isArray(respond)) {
    if (respond.length === 0)
      return [{ code: 'too_small', path: [...path], message: 'a list of answers must hold at least one' }];
    return respond.flatMap((answer, index) => oneResponseIssues(answer, [...path, index]));
  }
  return oneResponseIssues(respond, path);
}

// The issues of one response of a list, or alone: a function, or a fixed answer (a list inside a list is neither).
function oneResponseIssues(respond: unknown, path: readonly (string | number)[]): Issue[] {
  return typeof respond === 'function' ? [] : answerIssues(respond, path);
}

// The issues of one rule of a list: its keys, its matcher and its response.
function ruleIssues(rule: unknown, index: number): Issue[] {
  const issues = optionKeyIssues(rule, RULE_KEYS, [index]);
  if (issues[0]?.code === 'invalid_type') return issues;
  const { match, respond } = rule as { match?: unknown; respond?: unknown };
  if (!(typeof match === 'string' || match instanceof RegExp || typeof match === 'function'))
    issues.push({
      code: 'invalid_type',
      path: [index, 'match'],
      message: 'match must be a string, a RegExp or a function',
    });
  return [...issues, ...responseIssues(respond, [index, 'respond'])];
}

/** Refuses a table of fake responses with a mistake in it, when the runner is made. @internal */
export function checkFakeResponses(responses: unknown): void {
  const issues = Array.isArray(responses)
    ? responses.flatMap(ruleIssues)
    : typeof responses === 'object' && responses !== null
      ? Object.entries(responses).flatMap(([command, respond]) => responseIssues(respond, [command]))
      : [{ code: 'invalid_type', path: [], message: 'the responses must be a record or a list of rules' }];
  refuseOptions('createFakeCommandRunner', issues);
}
