// Overlapping alternatives under one repetition (`^(\w|\d)+$`, `^(a|aa){2,60}$`): when two alternatives of the
// repeated group can each match a run of one same character c, say c^p and c^q, the run c^(pq) parses two ways
// (p passes of one, q of the other), c^(pqn) at least 2^n ways, and a value that then fails makes a backtracking
// engine try them all, up to the bound: `(a|a){1,22}` already doubles its time with each `a`. Runs are read from
// the characters each atom surely matches (CharBounds.sure), so an alternative the reader cannot model (`\p{L}`,
// a backreference, a lookaround, an anchor) never overlaps: the check refuses only what it can show.
import { ANY_CHAR, type CharRanges, intersect, mergeRanges } from './char-ranges.js';
import type { RegexItem } from './regex-parse.js';

/**
 * What an item or a sequence surely matches among runs of one character: whether it surely matches the empty
 * string, and the characters c for which it surely matches c^k for some k >= 1. @internal
 */
export type Runs = { readonly empty: boolean; readonly runs: CharRanges };

// An alternative of a repeated group: its runs and its source span.
type Alternative = { readonly runs: CharRanges; readonly span: readonly [number, number] };

type Group = Extract<RegexItem, { kind: 'group' }>;

/**
 * True when a group counts as repeated, for both shape rules (nested repetitions, overlapping alternatives): it
 * may match more than once. A small bound (`{0,2}`) is harmless for overlap alone, but a nested repetition under
 * it is not (`(a+){0,2}b` is cubic), and one threshold keeps the two rules agreeing on what they refuse. @internal
 */
export function repeats(group: Pick<RegexItem, 'max'>): boolean {
  return group.max > 1;
}

/** Two alternatives of one repeated group that can match a run of the same character, as source spans. @internal */
export type Overlap = readonly [readonly [number, number], readonly [number, number]];

// Walks the items once, bottom up, keeping each item's runs, each group's alternatives' runs and the first overlap
// found.
class Walk {
  readonly alternatives = new Map<Group, Runs[]>();
  readonly runs = new Map<RegexItem, Runs>();
  overlap: Overlap | null = null;

  sequence(items: readonly RegexItem[]): Runs {
    // A run of c: each item matches the empty string or a run of c, at least one a run of c. An item that does
    // not surely match the empty string must take a run of c, so then the runs are those all such items share;
    // otherwise those of any item.
    let every: CharRanges = ANY_CHAR;
    let empty = true;
    const some: CharRanges[] = [];
    for (const item of items) {
      const runs = this.item(item);
      if (!runs.empty) {
        empty = false;
        if (every.length > 0) every = intersect(every, runs.runs);
      } else if (empty) some.push(runs.runs);
    }
    return { empty, runs: empty ? mergeRanges(some.flat()) : every };
  }

  private item(item: RegexItem): Runs {
    const runs = this.read(item);
    this.runs.set(item, runs);
    return runs;
  }

  private read(item: RegexItem): Runs {
    if (item.kind === 'assertion') return { empty: false, runs: [] };
    if (item.kind === 'atom') return { empty: item.min === 0, runs: item.max >= 1 ? item.sure : [] };
    const inner = item.alternatives.map((alternative) => this.sequence(alternative));
    // A lookaround matches no characters and may fail: nothing sure, though what it holds is still checked.
    if (item.lookaround) return { empty: false, runs: [] };
    if (repeats(item)) this.overlap ??= firstOverlap(this.flattened(item, inner));
    else if (item.min === 1 && item.max === 1) this.alternatives.set(item, inner);
    const runs = item.max >= 1 ? mergeRanges(inner.flatMap((alternative) => alternative.runs)) : [];
    return { empty: item.min === 0 || inner.some((alternative) => alternative.empty), runs };
  }

  // A group's alternatives, an alternative that is a plain group of its own (`(?:\w|(?:\d))`) read as its
  // alternatives: each pass picks one of them all the same.
  private flattened(group: Group, inner: readonly Runs[]): Alternative[] {
    return group.alternatives.flatMap((items, index) => {
      const only = items.length === 1 ? items[0] : undefined;
      const plain = only?.kind === 'group' ? this.alternatives.get(only) : undefined;
      if (only?.kind === 'group' && plain !== undefined) return this.flattened(only, plain);
      return [{ runs: inner[index]?.runs ?? [], span: group.spans[index] ?? [0, 0] }];
    });
  }
}

// Two alternatives whose runs share a character, found by one sweep over all their ranges sorted by start: a
// range that starts before the furthest end so far overlaps the range with that end, which belongs to another
// alternative (an alternative's own ranges are disjoint).
function firstOverlap(alternatives: readonly Alternative[]): Overlap | null {
  if (alternatives.length < 2) return null;
  const ranges = alternatives.flatMap((alternative, owner) => alternative.runs.map((range) => ({ range, owner })));
  ranges.sort((a, b) => a.range[0] - b.range[0]);
  let furthest: (typeof ranges)[number] | undefined;
  for (const entry of ranges) {
    if (furthest !== undefined && entry.range[0] <= furthest.range[1]) {
      const first = alternatives[furthest.owner] as Alternative;
      const second = alternatives[entry.owner] as Alternative;
      return first.span[0] <= second.span[0] ? [first.span, second.span] : [second.span, first.span];
    }
    if (furthest === undefined || entry.range[1] > furthest.range[1]) furthest = entry;
  }
  return null;
}

/**
 * The first two alternatives of a repeated group ({@link repeats}: `*`, `+`, `{2}`, `{1,40}`) that can each match
 * a run of the same character (`\w` and `\d`, `a` and `a?`, `a` and `aa`), or null; and the runs of every item.
 * Pure; one walk of the items.
 * @internal
 */
export function overlappingAlternatives(alternatives: readonly (readonly RegexItem[])[]): {
  readonly overlap: Overlap | null;
  readonly runs: ReadonlyMap<RegexItem, Runs>;
} {
  const walk = new Walk();
  for (const items of alternatives) walk.sequence(items);
  return { overlap: walk.overlap, runs: walk.runs };
}
