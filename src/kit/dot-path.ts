/** The result of reading a dot path: the value found, or where the walk stopped and why. @public */
export type DotPathResult =
  | { readonly found: true; readonly value: unknown }
  | { readonly found: false; readonly at: string; readonly why: string };

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/** Reads `a.b.0.c` from a parsed JSON value. @public */
export function readDotPath(value: unknown, path: string): DotPathResult {
  let cursor: unknown = value;
  // Walks the segments in place (a metric is read for every criterion of every evaluation).
  for (let start = 0; ; ) {
    const dot = path.indexOf('.', start);
    const end = dot === -1 ? path.length : dot;
    if (end === start) return { found: false, at: path.slice(0, end), why: 'empty path segment' };
    const step = stepInto(cursor, path.slice(start, end));
    if (!step.ok) return { found: false, at: path.slice(0, end), why: step.why };
    cursor = step.value;
    if (dot === -1) return { found: true, value: cursor };
    start = dot + 1;
  }
}

// Moves one segment into an array or object, or says why it cannot.
function stepInto(cursor: unknown, segment: string): { ok: true; value: unknown } | { ok: false; why: string } {
  if (Array.isArray(cursor)) {
    if (segment === 'length') return { ok: true, value: cursor.length };
    if (!ARRAY_INDEX.test(segment)) return { ok: false, why: `"${segment}" is not an array index or "length"` };
    const index = Number(segment);
    if (index >= cursor.length) return { ok: false, why: `index ${index} is out of range (length ${cursor.length})` };
    return { ok: true, value: cursor[index] as unknown };
  }
  if (typeof cursor === 'object' && cursor !== null) {
    const record = cursor as Record<string, unknown>;
    if (!Object.hasOwn(record, segment)) return { ok: false, why: `no key "${segment}"` };
    return { ok: true, value: record[segment] };
  }
  const kind = cursor === null ? 'null' : typeof cursor;
  const note = segment === 'length' && kind === 'string' ? ' ("length" counts array items only)' : '';
  return { ok: false, why: `cannot read "${segment}" of ${kind}${note}` };
}

/** Reads `record[key]` as an own property only, so that a key such as `constructor` or `__proto__` never reaches `Object.prototype`. @internal */
export function readOwn<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
