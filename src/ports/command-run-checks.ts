import { shownValue } from '../kit/shown-value.js';
import { unknownKeyIssue, unknownKeys } from '../kit/unknown-keys.js';
import type { CommandRunOptions } from './command-runner.js';

/** One problem of a command run's options, at its JSON path (the shape of the library's `Issue`). @internal */
export interface RunOptionIssue {
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

// Every option of a run, checked against the port's interface: a key outside it is a misspelling, never ignored.
const RUN_KEYS = Object.keys({ cwd: true, timeoutMs: true, env: true, signal: true } satisfies Record<
  keyof CommandRunOptions,
  true
>);

// The issue of one option: a required one that is absent, or one of the wrong kind.
function wrong(key: string, value: unknown, kind: string): RunOptionIssue {
  const message =
    value === undefined ? `${key} is required (${kind})` : `${key} must be ${kind} (got ${shownValue(value)})`;
  return { code: value === undefined ? 'missing' : 'invalid_type', path: [key], message };
}

// An object whose own values are all strings (the extra environment variables).
function isStringRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key of Object.keys(value)) if (typeof (value as Record<string, unknown>)[key] !== 'string') return false;
  return true;
}

// An AbortSignal, or anything the runners can use as one (a signal of another realm or a polyfill).
function isSignal(value: unknown): boolean {
  const signal = value as { aborted?: unknown; addEventListener?: unknown; removeEventListener?: unknown } | null;
  return (
    typeof signal === 'object' &&
    signal !== null &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  );
}

/** The issues of one run's options, as every {@link CommandRunner} checks them before it runs anything (no schema: once per command). @internal */
export function commandRunOptionIssues(options: unknown): RunOptionIssue[] {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return [{ code: 'invalid_type', path: [], message: 'the options must be an object with cwd and timeoutMs' }];
  const issues: RunOptionIssue[] = unknownKeys(options, RUN_KEYS).map(unknownKeyIssue);
  const { cwd, timeoutMs, env, signal } = options as Partial<Record<keyof CommandRunOptions, unknown>>;
  if (typeof cwd !== 'string' || cwd === '') issues.push(wrong('cwd', cwd, 'a non-empty directory path'));
  if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0))
    issues.push(wrong('timeoutMs', timeoutMs, 'a number of milliseconds ≥ 0'));
  if (env !== undefined && !isStringRecord(env)) issues.push(wrong('env', env, 'an object of string values'));
  if (signal !== undefined && !isSignal(signal)) issues.push(wrong('signal', signal, 'an AbortSignal'));
  return issues;
}
