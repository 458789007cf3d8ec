import { isNonEmptyString, isObject, isOptionalString } from '../../kit/zod-fast-path.js';

// The review's own predicates over its contracts' fields; the generic ones are in kit/zod-fast-path.ts.

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

/** `z.looseObject({ name: z.string().min(1) })`: an object with a non-empty `name`. @internal */
export function isNamed(value: unknown): boolean {
  return isObject(value) && isNonEmptyString(value.name);
}

/** A non-empty name, or an object with one (the tables of a design, the environments of a deployment). @internal */
export function isNameOrNamed(value: unknown): boolean {
  return isNonEmptyString(value) || isNamed(value);
}

/** The metadata fields every stage contract may carry. @internal */
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
