// Hand-written predicates that stand in for zod schemas on the hot paths of the parsers: true only for a value the
// schema accepts as it is, so the caller may read it in place; false means "ask zod", which reports every issue.

/** A hand-written predicate over one zod schema. @internal */
export type FastCheck = (value: unknown) => boolean;

/** True for what a zod object accepts unchanged. @internal */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, '__proto__');
}

/** `z.string().min(1)`: a string of at least one character. @internal */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** An optional `z.string()`: absent (undefined) or a string. @internal */
export function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** `z.array(z.string().min(1))` (names: endpoints, tables, stage ids): an array of non-empty strings. @internal */
export function isNameList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!isNonEmptyString(value[index])) return false;
  return true;
}

/** `z.array(item)`: an array whose every item passes `check` (a hole is read as undefined, as zod reads it). @internal */
export function isArrayOf(value: unknown, check: FastCheck): value is unknown[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!check(value[index])) return false;
  return true;
}

/** A finite number at least 0 (`z.number().min(0)`). @internal */
export function isNonNegativeNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
