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
      return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object of a class';
    }
    case 'undefined':
      return 'undefined';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * Why reading `value` throws, or `null` when it reads whole: every own
 * enumerable key of every object in it is listed and read once (a throwing
 * getter, a revoked proxy, a proxy trap that throws), iteratively, each
 * object once. The reason is the thrown error's `name: message`. Pure.
 *
 * @internal
 */
export function readFailure(value: unknown): string | null {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  try {
    for (let next = stack.pop(); stack.length > 0 || next !== undefined; next = stack.pop()) {
      if (typeof next !== 'object' || next === null || seen.has(next)) continue;
      seen.add(next);
      for (const key of Object.keys(next)) stack.push((next as Record<string, unknown>)[key]);
    }
    return null;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : 'a value that is not an Error';
  }
}
