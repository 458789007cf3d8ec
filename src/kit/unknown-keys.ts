/** One key of an object that its owner does not know: the key, its path, and the known key it most likely meant (or `undefined`). @internal */
export interface UnknownKey {
  readonly key: string;
  readonly path: readonly (string | number)[];
  readonly suggestion: string | undefined;
}

/** Own enumerable keys not in `known`, each with its likeliest intended key. @internal */
export function unknownKeys(
  value: unknown,
  known: readonly string[],
  base: readonly (string | number)[] = [],
): UnknownKey[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const allowed = new Set(known);
  return Object.keys(value)
    .filter((key) => !allowed.has(key))
    .map((key) => ({ key, path: [...base, key], suggestion: closestKey(key, known) }));
}

/** The issue a refusal carries for an unknown option. @internal */
export function unknownKeyIssue(unknown: UnknownKey): KeyIssue {
  return keyIssue(unknown, 'option');
}

// The shape of the library's `Issue` (kit/ imports nothing of the library).
type KeyIssue = { code: string; path: (string | number)[]; message: string };

// The issue of an unknown key, naming it as an option or as a key.
function keyIssue(unknown: UnknownKey, noun: 'option' | 'key'): KeyIssue {
  const hint = unknown.suggestion === undefined ? '' : `; did you mean \`${unknown.suggestion}\`?`;
  return { code: 'unrecognized_keys', path: [...unknown.path], message: `unknown ${noun} \`${unknown.key}\`${hint}` };
}

/** zod's grouped `unrecognized_keys` as one issue per key at its own path, with a did-you-mean. @internal */
export function unknownKeyIssuesAt(
  keys: readonly string[],
  path: readonly (string | number)[],
  known: readonly string[],
): KeyIssue[] {
  return keys.map((key) => keyIssue({ key, path: [...path, key], suggestion: closestKey(key, known) }, 'key'));
}

/** The closest known key, ignoring case, within distance 2 and under the key's length (`x` never suggests `fs`). @internal */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(2, lower.length - 1) + 1;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

// Optimal string alignment, capped at `limit`: a caller's key may be any length.
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= limit) return limit;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length] ?? limit, limit);
}
