import type { z } from 'zod';

/** A predicate that accepts only values its zod schema accepts unchanged. */
type Check = (value: unknown) => boolean;

// The parts of a zod (v4) schema definition the compiler reads.
interface SchemaDef {
  readonly type: string;
  readonly coerce?: boolean;
  readonly checks?: readonly { readonly _zod: { readonly def: { readonly check?: string; readonly minimum?: unknown; readonly value?: unknown; readonly inclusive?: boolean } } }[];
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly entries?: Record<string, unknown>;
}

const compiled = new WeakMap<object, Check | null>();
const generic = new WeakMap<object, Check | null>();
const handWritten = new WeakMap<object, Check>();

// The definition of a zod schema.
function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/**
 * True for what a zod object accepts unchanged: an object, not null, not an
 * array, without an own `__proto__` key (JSON.parse makes one; zod's output
 * drops it, so such an object is left to zod). @internal
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.prototype.hasOwnProperty.call(value, '__proto__');
}

/** `z.string().min(1)`: a string of at least one character. @internal */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** An optional `z.string()`: absent (undefined) or a string. @internal */
export function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** `z.array(z.string().min(1))` (the id lists): an array of non-empty strings. @internal */
export function isIdList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!isNonEmptyString(value[index])) return false;
  return true;
}

// The predicate of the schema's own checks (min length, inclusive or exclusive minimum), or null for any other check.
function compileChecks(def: SchemaDef): Check | null {
  const parts: Check[] = [];
  for (const check of def.checks ?? []) {
    const { check: kind, minimum, value, inclusive } = check._zod.def;
    if (kind === 'min_length' && typeof minimum === 'number') {
      // A string's length counts code points: two UTF-16 units per point at most, so `2 × minimum` units always suffice.
      parts.push((input) => {
        const length = (input as { length: number }).length;
        return length >= minimum && (typeof input !== 'string' || minimum <= 1 || length >= 2 * minimum || [...input].length >= minimum);
      });
    } else if (kind === 'greater_than' && typeof value === 'number') parts.push((input) => (inclusive === true ? (input as number) >= value : (input as number) > value));
    else return null;
  }
  if (parts.length <= 1) return parts[0] ?? (() => true);
  return (input) => {
    for (let index = 0; index < parts.length; index++) if (!(parts[index] as Check)(input)) return false;
    return true;
  };
}

// True when every item passes, holes included (read as undefined, as zod reads them).
function everyItem(items: readonly unknown[], check: Check): boolean {
  for (let index = 0; index < items.length; index++) if (!check(items[index])) return false;
  return true;
}

// The predicate of a loose object: every declared key passes (a required key must be present); other keys are free.
function compileObject(def: SchemaDef, schemaOnly: boolean): Check | null {
  if (def.shape === undefined || def.catchall === undefined || defOf(def.catchall).type !== 'unknown') return null;
  const keys = Object.keys(def.shape);
  if (keys.includes('__proto__') || Object.getOwnPropertySymbols(def.shape).length > 0) return null;
  const fields = keys.map((key) => ({ key, check: compile((def.shape as Record<string, z.ZodType>)[key] as z.ZodType, schemaOnly), required: (def.shape as Record<string, { _zod: { optin?: string } }>)[key]?._zod.optin === undefined }));
  if (fields.some((field) => field.check === null)) return null;
  const names = fields.map((field) => field.key);
  const checks = fields.map((field) => field.check as Check);
  const required = fields.map((field) => field.required);
  return (input) => {
    if (!isObject(input)) return false;
    for (let index = 0; index < names.length; index++) {
      const value = input[names[index] as string];
      if ((value === undefined && required[index] === true) || !(checks[index] as Check)(value)) return false;
    }
    return true;
  };
}

// The predicate of a schema's type, without its checks; null when the type is not one the compiler knows.
function compileType(def: SchemaDef, schemaOnly: boolean): Check | null {
  const inner = (schema: z.ZodType | undefined): Check | null => (schema === undefined ? null : compile(schema, schemaOnly));
  switch (def.type) {
    case 'string':
      return (input) => typeof input === 'string';
    case 'number':
      return (input) => typeof input === 'number' && Number.isFinite(input);
    case 'boolean':
      return (input) => typeof input === 'boolean';
    case 'unknown':
      return () => true;
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (input) => values.has(input);
    }
    case 'optional':
    case 'nullable': {
      const check = inner(def.innerType);
      const empty = def.type === 'optional' ? undefined : null;
      return check === null ? null : (input) => input === empty || check(input);
    }
    case 'array': {
      const check = inner(def.element);
      return check === null ? null : (input) => Array.isArray(input) && everyItem(input, check);
    }
    case 'union': {
      const options = (def.options ?? []).map((option) => compile(option, schemaOnly));
      if (options.length === 0 || options.some((option) => option === null)) return null;
      return (input) => (options as Check[]).some((option) => option(input));
    }
    case 'object':
      return compileObject(def, schemaOnly);
    default:
      return null;
  }
}

// Compiles a schema into its predicate (cached), or null when some part is beyond the compiler; `schemaOnly` ignores hand-written predicates.
function compile(schema: z.ZodType, schemaOnly = false): Check | null {
  const cache = schemaOnly ? generic : compiled;
  if (cache.has(schema)) return cache.get(schema) ?? null;
  const written = schemaOnly ? undefined : handWritten.get(schema);
  const def = defOf(schema);
  // An exact optional rejects a present undefined, and a coercing schema rewrites its input: both are left to zod.
  const exact = (schema as unknown as { _zod: { traits: ReadonlySet<string> } })._zod.traits.has('$ZodExactOptional');
  const type = written !== undefined || exact || def.coerce === true ? null : compileType(def, schemaOnly);
  const checks = type === null ? null : compileChecks(def);
  const check = written ?? (type === null || checks === null ? null : (def.checks ?? []).length === 0 ? type : (input: unknown) => type(input) && checks(input));
  cache.set(schema, check);
  return check;
}

/**
 * Gives a schema a hand-written fast predicate, used in place of the one
 * compiled from the schema (for the item schemas of the large arrays). It
 * must accept exactly what the compiled predicate accepts; the tests hold it
 * to that on generated values. Returns the schema.
 *
 * @internal
 */
export function withFastCheck<S extends z.ZodType>(schema: S, check: (value: unknown) => boolean): S {
  handWritten.set(schema, check);
  return schema;
}

/** The predicate compiled from `schema` alone, ignoring hand-written ones (null: beyond the compiler). For tests. @internal */
export function compiledFastCheck(schema: z.ZodType): ((value: unknown) => boolean) | null {
  return compile(schema, true);
}

/**
 * The fast path of contract validation: true only when `schema` accepts
 * `input` as it is (the loose-object, array, string, number, enum, union,
 * optional and nullable schemas of the stage contracts, with no transform),
 * so the caller may read `input` as the parsed value without zod copying it.
 * False means "ask zod" (which then reports every issue with its path).
 *
 * @internal
 */
export function passesFastCheck(schema: z.ZodType, input: unknown): boolean {
  const check = compile(schema);
  return check !== null && check(input);
}
