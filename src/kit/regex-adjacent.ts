// Adjacent repetitions over the same characters (`^a*a*a*b$`, `^\d*\d*\d*x$`): k repetitions in a row that can each
// take any share of a run of one character c split c^n in about n^(k-1) ways, and a value that then fails makes a
// backtracking engine try them all: polynomial, of a degree the pattern chooses (`a*` ten times in a row took 20 s
// on 40 characters). Two in a row (`\s*\w*`, `[a-z]*[a-z0-9]*`) cost at most n² per start and are common, so a run
// of three is refused. An item between them that must match and cannot match c (`a*-a*-a*`) ends the run for c;
// one that may match nothing (`a*b?a*`) does not. Sets are read from what each item surely matches (Runs,
// regex-overlap.ts), so what the reader does not model (`\p{L}*`) never joins a run: it refuses only what it shows.
import { type CharRanges, intersect } from './char-ranges.js';
import type { Runs } from './regex-overlap.js';
import type { RegexItem } from './regex-parse.js';

/** A repetition takes many characters when it may take more than this many passes, and a varying number. @internal */
export const MANY_PASSES = 16;

/** Three repetitions in a row over the same characters, as source spans. @internal */
export type Adjacent = readonly [readonly [number, number], readonly [number, number], readonly [number, number]];

// How many chains a sequence follows at once: the most recent ones (a chain is a run in progress).
const MAX_CHAINS = 8;

// A run in progress: the repetitions in it so far (spans) and the characters they, and every required item since
// the first, can all take a run of.
type Chain = { readonly spans: readonly (readonly [number, number])[]; readonly shared: CharRanges };

// Reads sequences, each item once: a plain group of one alternative (`(a*)`, `(?:a*b)`) is read as part of its
// sequence, since its items run in a row with their neighbours; any other group's alternatives start their own.
class Scan {
  found: Adjacent | null = null;

  constructor(private readonly runs: ReadonlyMap<RegexItem, Runs>) {}

  sequence(items: readonly RegexItem[]): void {
    this.items(items, []);
  }

  private items(items: readonly RegexItem[], chains: Chain[]): void {
    for (const item of items) {
      if (this.found !== null) return;
      const only = item.kind === 'group' && item.alternatives.length === 1 ? item.alternatives[0] : undefined;
      if (only !== undefined && item.kind === 'group' && !item.lookaround && item.min === 1 && item.max === 1) {
        this.items(only, chains);
        continue;
      }
      if (item.kind === 'group') for (const alternative of item.alternatives) this.sequence(alternative);
      this.item(item, chains);
    }
  }

  private item(item: RegexItem, chains: Chain[]): void {
    const runs = this.runs.get(item)?.runs ?? [];
    const empty = this.runs.get(item)?.empty !== false;
    if (item.max > MANY_PASSES && item.max > item.min) {
      const extended: Chain[] = [];
      for (const chain of chains) {
        const shared = intersect(chain.shared, runs);
        if (shared.length === 0) continue;
        const spans = [...chain.spans, item.at];
        if (spans.length >= 3) {
          this.found = [spans[0], spans[1], spans[2]] as unknown as Adjacent;
          return;
        }
        extended.push({ spans, shared });
      }
      // A repetition that may take nothing leaves the runs before it going; one that must take something ends
      // those it cannot continue.
      const kept = empty ? chains : [];
      const next = [...kept, ...extended, { spans: [item.at], shared: runs }];
      chains.splice(0, chains.length, ...next.slice(-MAX_CHAINS));
      return;
    }
    // An item that must match keeps in each run only the characters it surely matches a run of.
    if (empty) return;
    const narrowed = chains.map((chain) => ({ ...chain, shared: intersect(chain.shared, runs) }));
    chains.splice(0, chains.length, ...narrowed.filter((chain) => chain.shared.length > 0));
  }
}

/**
 * The source spans of the first three repetitions in a row that may each take many characters ({@link MANY_PASSES})
 * and can all take a run of one same character, with nothing required between them that cannot, or null
 * (`^a*a*a*b$`, `^\d+\d*[0-9]{0,20}x$`; `^\s*\w*$` and `^[a-z]*[0-9]*[a-z]*$` are fine). Pure; each item once.
 * @internal
 */
export function adjacentRepetitions(
  alternatives: readonly (readonly RegexItem[])[],
  runs: ReadonlyMap<RegexItem, Runs>,
): Adjacent | null {
  const scan = new Scan(runs);
  for (const items of alternatives) scan.sequence(items);
  return scan.found;
}
