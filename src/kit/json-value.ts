// Where a value stops being JSON: the first thing in it that JSON cannot hold, for messages that name the field.

/** A place in a value that JSON cannot hold, and what stands there. @internal */
export interface NonJsonPlace {
  readonly path: readonly (string | number)[];
  /** What stands there: `a function`, `NaN`, `a Date`, `undefined`, `a cycle`, … */
  readonly what: string;
}

/** The first place (depth first, key order) that is not a JSON value. @internal */
export function nonJsonPlace(value: unknown): NonJsonPlace | null {
  // Depth first with explicit leave marks, so `inside` holds exactly the objects on the path to the current one.
  const stack: (Step | { leave: object })[] = [{ value, key: null, parent: null }];
  const inside = new Set<object>();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if ('leave' in next) {
      inside.delete(next.leave);
      continue;
    }
    const what = nonJsonKind(next.value);
    if (what !== null) return { path: pathOf(next), what };
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (inside.has(next.value)) return { path: pathOf(next), what: 'a cycle (an object inside itself)' };
    inside.add(next.value);
    stack.push({ leave: next.value });
    const entries = Array.isArray(next.value)
      ? next.value.map((item, index) => [index, item] as const)
      : Object.entries(next.value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index] as readonly [string | number, unknown];
      stack.push({ value: item, key, parent: next });
    }
  }
  return null;
}

// One value met in the walk: its key in its parent (null at the root) and the parent's step.
interface Step {
  readonly value: unknown;
  readonly key: string | number | null;
  readonly parent: Step | null;
}

// The path from the root to a step.
function pathOf(step: Step): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Step | null = step; at !== null && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

// What a value is when JSON cannot hold it itself (null for JSON scalars, arrays and plain objects).
function nonJsonKind(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : String(value);
    case 'object': {
      if (value === null || Array.isArray(value) || isPlainObject(value)) return null;
      const prototype = Object.getPrototypeOf(value) as object;
      const name = (prototype.constructor as { name?: unknown } | undefined)?.name;
      if (typeof name !== 'string' || name === '') return 'an object of a class';
      return `${/^[AEIOU]/i.test(name) ? 'an' : 'a'} ${name}`;
    }
    case 'undefined':
      return 'undefined';
    default:
      return `a ${typeof value}`;
  }
}

// Any realm's Object.prototype counts, so vm contexts and test environments pass.
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/** Why {@link readWhole} could not copy a value. @internal */
export type ReadFailure =
  | { readonly ok: false; readonly kind: 'threw'; readonly reason: string }
  | {
      readonly ok: false;
      readonly kind: 'not_json';
      readonly path: readonly (string | number)[];
      readonly what: string;
    };

/** Reads `value` once as JSON holds it (cycles kept), so getters run once. @internal */
export function readWhole(value: unknown): { ok: true; value: unknown } | ReadFailure {
  const copies = new Map<object, unknown[] | Record<string, unknown>>();
  const pending: [object, unknown[] | Record<string, unknown>, Step][] = [];
  let refused: { path: (string | number)[]; what: string } | null = null;
  // A step (for the path of a refusal) is made only for an object met, never for a scalar.
  const copyOf = (item: unknown, key: string | number | null, parent: Step | null): unknown => {
    if (typeof item !== 'object' || item === null) return item;
    const known = copies.get(item);
    if (known !== undefined) return known;
    const step = { value: item, key, parent };
    if (!Array.isArray(item) && !isPlainObject(item)) {
      refused ??= { path: pathOf(step), what: nonJsonKind(item) ?? 'an object of a class' };
      return null;
    }
    const copy = Array.isArray(item) ? [] : {};
    copies.set(item, copy);
    pending.push([item, copy, step]);
    return copy;
  };
  try {
    const root = copyOf(value, null, null);
    for (let next = pending.pop(); next !== undefined && refused === null; next = pending.pop()) {
      const [source, target, step] = next;
      if (Array.isArray(target)) {
        const list = source as unknown[];
        for (let index = 0; index < list.length; index++) target.push(copyOf(list[index], index, step));
      } else
        for (const key of Object.keys(source)) {
          const item = copyOf((source as Record<string, unknown>)[key], key, step);
          // A key named __proto__ is an own field in JSON: assigned, it would set the copy's prototype instead.
          if (key === '__proto__')
            Object.defineProperty(target, key, { value: item, enumerable: true, writable: true, configurable: true });
          else target[key] = item;
        }
    }
    if (refused !== null)
      return { ok: false, kind: 'not_json', ...(refused as { path: (string | number)[]; what: string }) };
    return { ok: true, value: root };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'a value that is not an Error';
    return { ok: false, kind: 'threw', reason };
  }
}
