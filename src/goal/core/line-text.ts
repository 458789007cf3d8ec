import { GoalLoopError } from '../../errors.js';
import { oneLine } from '../../kit/markdown.js';

/** A value read from an event or a result, as text on one line. @internal */
export function field(value: unknown): string {
  if (typeof value === 'string') return oneLine(value);
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  return '?';
}

/** A list of stage ids on one line (`none` when empty, `?` when not a list). Pure. @internal */
export function fieldList(value: unknown, none: string): string {
  if (!Array.isArray(value)) return '?';
  return value.length === 0 ? none : value.map(field).join(', ');
}

/** USD for people: `$0.05`, `$1.2345` (at most four decimals); `$?` when not a number. Pure. @internal */
export function formatUsd(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? `$${Number(value.toFixed(4))}` : '$?';
}

/** A duration for people: `850 ms`, `12.3 s`; `? ms` when not a number. Pure. @internal */
export function formatDuration(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '? ms';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The argument of a formatting function as an object, or `INVALID_OPTIONS` naming the function and its argument (never
 * a `TypeError` from reading a field of `null`). @internal
 */
export function objectArgument(value: unknown, call: string): Readonly<Record<string, unknown>> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  throw new GoalLoopError('INVALID_OPTIONS', `${call}: expected an object, got ${got}`, {
    issues: [{ code: 'invalid_type', path: [], message: `expected an object, got ${got}` }],
  });
}

/**
 * `INVALID_OPTIONS` for a value outside a closed union (an event type, a stop reason), naming the call and the field
 * (`event.type`), the value flattened to one line. @internal
 */
export function unknownValue(call: string, argument: string, key: string, value: unknown): GoalLoopError {
  const shown =
    typeof value === 'string'
      ? JSON.stringify(oneLine(value).slice(0, 80))
      : typeof value === 'object' || typeof value === 'function'
        ? value === null
          ? 'null'
          : `a ${typeof value}`
        : String(value);
  return new GoalLoopError('INVALID_OPTIONS', `${call}: unknown ${argument}.${key} ${shown}`, {
    issues: [{ code: 'invalid_value', path: [key], message: `unknown value ${shown}` }],
  });
}
