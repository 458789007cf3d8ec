/** A container met on the walk, with how it was reached (for the path) and how many containers enclose it. */
interface Visit {
  readonly value: object;
  readonly depth: number;
  readonly key: string | number | null;
  readonly parent: Visit | null;
}

// The path from the walk's root to a visited container.
function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at !== null && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path to the first object or array of `value` nested more than `maxDepth` containers deep (`value` itself, when a
 * container, is the first level), or `null` when none is. @internal
 */
export function pathBeyondDepth(value: unknown, maxDepth: number): (string | number)[] | null {
  if (typeof value !== 'object' || value === null) return null;
  const deepest = new WeakMap<object, number>();
  const stack: Visit[] = [{ value, depth: 1, key: null, parent: null }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    if (visit.depth > maxDepth) return pathOf(visit);
    if ((deepest.get(visit.value) ?? 0) >= visit.depth) continue;
    deepest.set(visit.value, visit.depth);
    const record = visit.value as Record<string | number, unknown>;
    const keys = Array.isArray(visit.value) ? null : Object.keys(record);
    const count = keys === null ? (visit.value as unknown[]).length : keys.length;
    // Pushed last to first, so the first child is walked first and the path found is the first in document order.
    for (let index = count - 1; index >= 0; index -= 1) {
      const key = keys === null ? index : (keys[index] as string);
      const child = record[key];
      if (typeof child === 'object' && child !== null)
        stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return null;
}
