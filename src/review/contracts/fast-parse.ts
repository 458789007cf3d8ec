/**
 * A hand-written predicate over one zod schema: true only for a value the
 * schema accepts as it is (zod would return an equal value), so the caller may
 * read the value in place without zod copying it. False means "ask zod",
 * which then reports every issue with its path. Passed explicitly with each
 * read, never registered on a schema; the tests hold each predicate to its
 * schema on generated values.
 *
 * @internal
 */
export type FastCheck = (value: unknown) => boolean;

/**
 * True for what a zod object accepts unchanged: an object, not null, not an
 * array, without an own `__proto__` key (JSON.parse makes one; zod's output
 * drops it, so such an object is left to zod). @internal
 */
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

/** `z.array(z.string().min(1))` (names: endpoints, tables): an array of non-empty strings. @internal */
export function isNameList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!isNonEmptyString(value[index])) return false;
  return true;
}

/** `idSchema`: a string of 1 to 256 characters (MAX_ID_LENGTH). @internal */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 256;
}

/** `idListSchema` (the id lists): an array of ids ({@link isId}). @internal */
export function isIdList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!isId(value[index])) return false;
  return true;
}

/** `z.array(item)`: an array whose every item passes `check` (a hole is read as undefined, as zod reads it). @internal */
export function isArrayOf(value: unknown, check: FastCheck): value is unknown[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!check(value[index])) return false;
  return true;
}

/** `z.looseObject({ name: z.string().min(1) })`: an object with a non-empty `name`. @internal */
export function isNamed(value: unknown): boolean {
  return isObject(value) && isNonEmptyString(value.name);
}

/** A non-empty name, or an object with one (the tables of a design, the environments of a deployment). @internal */
export function isNameOrNamed(value: unknown): boolean {
  return isNonEmptyString(value) || isNamed(value);
}

/** A finite number at least 0 (`z.number().min(0)`). @internal */
export function isNonNegativeNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * The metadata fields every stage contract may carry (`contract_version` a
 * string or a finite number; `produced_by`, `timestamp`, `source` strings;
 * each optional), on an object {@link isObject} accepted. @internal
 */
export function hasContractMetadata(value: Record<string, unknown>): boolean {
  const version = value.contract_version;
  return (
    (version === undefined ||
      typeof version === 'string' ||
      (typeof version === 'number' && Number.isFinite(version))) &&
    isOptionalString(value.produced_by) &&
    isOptionalString(value.timestamp) &&
    isOptionalString(value.source)
  );
}
