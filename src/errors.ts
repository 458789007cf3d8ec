import { z } from 'zod';
import { formatIssue, type Issue, issuesFromZod } from './issues.js';
import { unknownKeyIssue, unknownKeys } from './kit/unknown-keys.js';

// The issue shape and its helpers live in issues.ts; errors.ts stays the one module the lower layers import.
export {
  formatIssue,
  formatJsonPath,
  type Issue,
  issuesFromZod,
  moreIssues,
  type ParseResult,
  parseJsonText,
} from './issues.js';

/** Every code a {@link GoalLoopError} can carry. @public */
export type GoalLoopErrorCode =
  | 'RUN_LOCKED'
  | 'INVALID_OPTIONS'
  | 'INVALID_CONTRACT'
  | 'IO_ERROR'
  | 'STATE_CORRUPT'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_ENDED';

/** The one error class the library throws. @public */
export class GoalLoopError extends Error {
  /** What went wrong, as a closed union a caller can switch on. */
  readonly code: GoalLoopErrorCode;
  /** Contract issues behind an `INVALID_CONTRACT` or `INVALID_OPTIONS` error. */
  readonly issues: readonly Issue[];

  constructor(code: GoalLoopErrorCode, message: string, options: { cause?: unknown; issues?: readonly Issue[] } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GoalLoopError';
    this.code = code;
    this.issues = options.issues ?? [];
  }
}

/** True when `value` is a {@link GoalLoopError}, optionally with the given code. @public */
export function isGoalLoopError(value: unknown, code?: GoalLoopErrorCode): value is GoalLoopError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { name?: unknown; code?: unknown };
  return (
    candidate.name === 'GoalLoopError' &&
    typeof candidate.code === 'string' &&
    (code === undefined || candidate.code === code)
  );
}

/** True for the refusal of a text read whose bytes are not valid UTF-8. @internal */
export function isInvalidUtf8Error(error: unknown): error is GoalLoopError {
  return isGoalLoopError(error, 'IO_ERROR') && (error.cause as { code?: unknown } | undefined)?.code === 'EILSEQ';
}

/** Refuses arguments that must be non-negative integers. @internal */
export function requireNonNegativeIntegers(operation: string, values: Readonly<Record<string, number>>): void {
  const bad = Object.entries(values).filter(([, value]) => !Number.isSafeInteger(value) || value < 0);
  if (bad.length === 0) return;
  const shown = bad.map(([name, value]) => `${name} ${String(value)}`).join(', ');
  throw new GoalLoopError('INVALID_OPTIONS', `${operation} needs non-negative integers (got ${shown})`);
}

// Drops `readonly` at every depth, as z.array() and z.record() accept readonly inputs.
type Widened<T> = T extends readonly (infer E)[]
  ? Widened<E>[]
  : T extends (...args: never[]) => unknown
    ? T
    : T extends object
      ? { -readonly [K in keyof T]: Widened<T[K]> }
      : T;

// What an option may be: its type, and `undefined` when the key is optional.
type OptionValue<T, K extends keyof T> = Widened<object extends Pick<T, K> ? T[K] | undefined : T[K]>;

// Per key of `T`: the entry of `S` when it accepts every value `T` allows there, else a type naming that value.
type CheckedShape<T, S> = {
  readonly [K in keyof Required<T>]: K extends keyof S
    ? [OptionValue<T, K & keyof T>] extends [z.input<S[K]>]
      ? S[K]
      : { readonly 'this entry must accept': OptionValue<T, K & keyof T> }
    : z.ZodType;
} & { readonly [K in Exclude<keyof S, keyof T>]: never };

/** Types a zod shape against `T` so the options interface stays the one source of their types. @internal */
export function optionShapeOf<T>(): <const S extends CheckedShape<T, S>>(shape: S) => S {
  return (shape) => shape;
}

// Each shape's object schema and keys, built once: per-call options (`runToCompletion`) are checked on every call.
const compiledShapes = new WeakMap<z.ZodRawShape, { schema: z.ZodObject; keys: readonly string[] }>();

/** `INVALID_OPTIONS` naming `label` with every issue, unknown keys included (with a did-you-mean). @internal */
export function refuseInvalidOptions(label: string, shape: z.ZodRawShape, options: unknown): void {
  refuseOptions(label, invalidOptionIssues(shape, options));
}

/** An option that must implement `methods` (a port: `fs`, `runner`, `clock`), refused with `message`. @internal */
export function portOption(methods: readonly string[], message: string) {
  return z.custom(
    (value) =>
      (typeof value === 'object' || typeof value === 'function') &&
      value !== null &&
      methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
    { message },
  );
}

/** Stage ids, none empty and none repeated. @internal */
export const stageIdsOption = z
  .array(z.string().min(1))
  .refine((stages) => new Set(stages).size === stages.length, { message: 'stages must not repeat a stage id' });

/** The issues {@link refuseInvalidOptions} refuses, without throwing. @internal */
export function invalidOptionIssues(shape: z.ZodRawShape, options: unknown): Issue[] {
  const compiled = compiledShapes.get(shape) ?? { schema: z.object(shape), keys: Object.keys(shape) };
  compiledShapes.set(shape, compiled);
  try {
    const parsed = compiled.schema.safeParse(options);
    const keys = optionKeyIssues(options, compiled.keys);
    // Options that are not an object have one issue, the key check's (zod's would say the same again).
    const values = parsed.success || keys[0]?.code === 'invalid_type' ? [] : issuesFromZod(parsed.error);
    return [...keys, ...values];
  } catch (error) {
    // Options whose reading throws (a throwing getter, a revoked proxy) cannot be checked: refused, never a crash.
    const why = error instanceof Error ? `${error.name}: ${error.message}` : 'a value that is not an Error';
    return [{ code: 'unreadable', path: [], message: `reading the options threw (${why})` }];
  }
}

/** Key issues at `base`: `invalid_type` for a non-object, else one per unknown key with a did-you-mean. @internal */
export function optionKeyIssues(
  options: unknown,
  known: readonly string[],
  base: readonly (string | number)[] = [],
): Issue[] {
  if (typeof options === 'object' && options !== null && !Array.isArray(options))
    return unknownKeys(options, known, base).map(unknownKeyIssue);
  const message = base.length === 0 ? 'the options must be an object' : 'must be an object';
  return [{ code: 'invalid_type', path: [...base], message }];
}

/** Throws `INVALID_OPTIONS` naming `label` and listing `issues` with their paths, when there are any. @internal */
export function refuseOptions(label: string, issues: readonly Issue[]): void {
  if (issues.length === 0) return;
  throw new GoalLoopError('INVALID_OPTIONS', `Invalid ${label} options: ${issues.map(formatIssue).join('; ')}`, {
    issues,
  });
}
