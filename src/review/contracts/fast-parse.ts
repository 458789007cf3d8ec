import type { z } from 'zod';

/** A predicate that accepts only values its zod schema accepts unchanged. */
type Check = (value: unknown) => boolean;

/**
 * Hand-written fast predicates, by the schema each one replaces (the item
 * schemas of the large arrays). Each must accept exactly what the predicate
 * compiled from its schema accepts; the tests hold it to that on generated
 * values. Passed explicitly to `readWith` / {@link passesFastCheck}, never
 * registered globally.
 *
 * @internal
 */
export type HandWrittenChecks = ReadonlyMap<z.ZodType, Check>;

// The fields of a zod 4 definition (schema or check) the compiler reads; each is checked before use.
type ZodDef = Partial<
  Readonly<
    Record<
      | 'type'
      | 'coerce'
      | 'checks'
      | 'shape'
      | 'catchall'
      | 'element'
      | 'innerType'
      | 'options'
      | 'entries'
      | 'check'
      | 'minimum'
      | 'value'
      | 'inclusive',
      unknown
    >
  >
>;

// What zodInternals reads: the definition, whether the schema is an exact optional, and whether it may be absent from an object.
interface ZodInternals {
  readonly def: ZodDef;
  readonly exactOptional: boolean;
  readonly optional: boolean;
}

const NO_HAND_WRITTEN: HandWrittenChecks = new Map();
// Compiled predicates, memoized per set of hand-written ones (filled lazily, on first use).
const memo = new WeakMap<HandWrittenChecks, WeakMap<object, Check | null>>();

// The only reader of zod's private `_zod` (def, traits, optin, version), which the compiler needs because zod 4 exposes a schema's kind, checks and children nowhere else. After a zod upgrade that reshapes them, this returns null (another major version, a missing def or traits) or a def whose `type`/`check` the compiler does not know, which compiles to null: readWith then asks zod (slower, never wrong). A change that keeps the names but changes their meaning is caught by test/review/contracts/fast-check.test.ts.
function zodInternals(value: unknown, schema: boolean): ZodInternals | null {
  const zod = typeof value === 'object' && value !== null ? (value as { _zod?: unknown })._zod : undefined;
  if (typeof zod !== 'object' || zod === null) return null;
  const { def, traits, optin, version } = zod as {
    def?: unknown;
    traits?: unknown;
    optin?: unknown;
    version?: { major?: unknown };
  };
  if (typeof def !== 'object' || def === null) return null;
  if (schema && (version?.major !== 4 || !(traits instanceof Set))) return null;
  return {
    def: def as ZodDef,
    exactOptional: traits instanceof Set && traits.has('$ZodExactOptional'),
    optional: optin !== undefined,
  };
}

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

/** `z.array(z.string().min(1))` (the id lists): an array of non-empty strings. @internal */
export function isIdList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!isNonEmptyString(value[index])) return false;
  return true;
}

// The predicate of the schema's own checks (min length, inclusive or exclusive minimum), or null for any other check.
function compileChecks(def: ZodDef): Check | null {
  if (def.checks !== undefined && !Array.isArray(def.checks)) return null;
  const parts: Check[] = [];
  for (const check of (def.checks ?? []) as unknown[]) {
    const { check: kind, minimum, value, inclusive } = zodInternals(check, false)?.def ?? {};
    if (kind === 'min_length' && typeof minimum === 'number') {
      // A string's length counts code points: two UTF-16 units per point at most, so `2 × minimum` units always suffice.
      parts.push((input) => {
        const length = (input as { length: number }).length;
        return (
          length >= minimum &&
          (typeof input !== 'string' || minimum <= 1 || length >= 2 * minimum || [...input].length >= minimum)
        );
      });
    } else if (kind === 'greater_than' && typeof value === 'number')
      parts.push((input) => (inclusive === true ? (input as number) >= value : (input as number) > value));
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
function compileObject(def: ZodDef, handWritten: HandWrittenChecks): Check | null {
  if (typeof def.shape !== 'object' || def.shape === null || zodInternals(def.catchall, true)?.def.type !== 'unknown')
    return null;
  const shape = def.shape as Record<string, z.ZodType>;
  const keys = Object.keys(shape);
  if (keys.includes('__proto__') || Object.getOwnPropertySymbols(shape).length > 0) return null;
  const fields = keys.map((key) => ({
    key,
    check: compile(shape[key] as z.ZodType, handWritten),
    internals: zodInternals(shape[key], true),
  }));
  if (fields.some((field) => field.check === null || field.internals === null)) return null;
  const names = fields.map((field) => field.key);
  const checks = fields.map((field) => field.check as Check);
  const required = fields.map((field) => field.internals?.optional === false);
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
function compileType(def: ZodDef, handWritten: HandWrittenChecks): Check | null {
  const inner = (schema: unknown): Check | null =>
    schema === undefined ? null : compile(schema as z.ZodType, handWritten);
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
      if (typeof def.entries !== 'object' || def.entries === null) return null;
      const values = new Set(Object.values(def.entries));
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
      const options = Array.isArray(def.options) ? def.options.map(inner) : [];
      if (options.length === 0 || options.some((option) => option === null)) return null;
      return (input) => (options as Check[]).some((option) => option(input));
    }
    case 'object':
      return compileObject(def, handWritten);
    default:
      return null;
  }
}

// The predicate of a schema (a hand-written one first, else compiled from its definition; memoized), or null when some part is beyond the compiler.
function compile(schema: z.ZodType, handWritten: HandWrittenChecks): Check | null {
  let cache = memo.get(handWritten);
  if (cache === undefined) {
    cache = new WeakMap();
    memo.set(handWritten, cache);
  }
  if (cache.has(schema)) return cache.get(schema) ?? null;
  const internals = handWritten.has(schema) ? null : zodInternals(schema, true);
  // An exact optional rejects a present undefined, and a coercing schema rewrites its input: both are left to zod.
  const type =
    internals === null || internals.exactOptional || internals.def.coerce === true
      ? null
      : compileType(internals.def, handWritten);
  const checks = type === null || internals === null ? null : compileChecks(internals.def);
  const unchecked = !Array.isArray(internals?.def.checks) || internals.def.checks.length === 0;
  const compiled =
    type === null || checks === null ? null : unchecked ? type : (input: unknown) => type(input) && checks(input);
  const check = handWritten.get(schema) ?? compiled;
  cache.set(schema, check);
  return check;
}

/** The predicate compiled from `schema` alone, without hand-written ones (null: beyond the compiler). For tests. @internal */
export function compiledFastCheck(schema: z.ZodType): ((value: unknown) => boolean) | null {
  return compile(schema, NO_HAND_WRITTEN);
}

/**
 * The fast path of contract validation: true only when `schema` accepts
 * `input` as it is (the loose-object, array, string, number, enum, union,
 * optional and nullable schemas of the stage contracts, with no transform),
 * so the caller may read `input` as the parsed value without zod copying it.
 * `handWritten` replaces the compiled predicate of the schemas it names.
 * False means "ask zod" (which then reports every issue with its path).
 *
 * @internal
 */
export function passesFastCheck(
  schema: z.ZodType,
  input: unknown,
  handWritten: HandWrittenChecks = NO_HAND_WRITTEN,
): boolean {
  const check = compile(schema, handWritten);
  return check?.(input) === true;
}
