// Where a value stops being JSON: the first thing in it that JSON cannot hold, for messages that name the field.

/** A place in a value that JSON cannot hold, and what stands there. @internal */
export interface NonJsonPlace {
  readonly path: readonly (string | number)[];
  /** What stands there: `a function`, `NaN`, `a Date`, `undefined`, `a cycle`, … */
  readonly what: string;
}

/**
 * The first place in `value` (depth first, in key order) that is not a JSON
 * value: not null, a boolean, a string, a finite number, an array or a plain
 * object; or an object met again inside itself (a cycle). `null` when all of
 * it is JSON. Iterative, so any depth is walked without a stack overflow.
 * Pure (reading a getter may throw: the caller catches).
 *
 * @internal
 */
export function nonJsonPlace(value: unknown): NonJsonPlace | null {
  // Depth first with explicit leave marks, so `inside` holds exactly the objects on the path to the current one; a
  // step keeps its key and its parent step, and the path is built only for the place reported.
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
      if (value === null || Array.isArray(value)) return null;
      const prototype = Object.getPrototypeOf(value) as object | null;
      if (prototype === null || prototype === Object.prototype) return null;
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

/**
 * A copy of `value` made by reading it once, or why reading it throws (a
 * throwing getter, a revoked proxy, a proxy trap that throws: the thrown
 * error's `name: message`). Arrays are copied by index, every other object
 * as a plain object of its own enumerable string keys (a class's prototype,
 * its getters, a proxy's `get` trap for keys it does not list: never read
 * again), each object once (cycles are kept as cycles); other values are
 * kept. A parser that reads the copy cannot be made to throw by its input.
 * Iterative, so any depth is copied without a stack overflow. Pure.
 *
 * @internal
 */
export function readWhole(value: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  const copies = new Map<object, unknown[] | Record<string, unknown>>();
  const copyOf = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null) return item;
    const known = copies.get(item);
    if (known !== undefined) return known;
    const copy = Array.isArray(item) ? [] : {};
    copies.set(item, copy);
    pending.push([item, copy]);
    return copy;
  };
  const pending: [object, unknown[] | Record<string, unknown>][] = [];
  try {
    const root = copyOf(value);
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [source, target] = next;
      if (Array.isArray(target)) {
        const list = source as unknown[];
        for (let index = 0; index < list.length; index++) target.push(copyOf(list[index]));
      } else
        for (const key of Object.keys(source))
          Object.defineProperty(target, key, {
            value: copyOf((source as Record<string, unknown>)[key]),
            enumerable: true,
            writable: true,
            configurable: true,
          });
    }
    return { ok: true, value: root };
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof Error ? `${error.name}: ${error.message}` : 'a value that is not an Error',
    };
  }
}
