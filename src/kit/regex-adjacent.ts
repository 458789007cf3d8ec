// Adjacent repetitions over the same characters (`^a*a*a*b$`, `^\d*\d*\d*x$`): k repetitions in a row that can each
// take any share of a run of one character c split c^n in about n^(k-1) ways, and a value that then fails makes a
// backtracking engine try them all: polynomial, of a degree the pattern chooses (`a*` ten times in a row took 20 s
// on 40 characters). Two in a row (`\s*\w*`, `[a-z]*[a-z0-9]*`) cost at most n² per start and are common, so a run
// of three is refused. Short repetitions (at most MANY_PASSES passes) split a run in the product of their numbers
// of passes, so a run of them is refused once that passes MAX_SHORT_WAYS (`a{0,16}` four times). An item between them that must match and cannot match c (`a*-a*-a*`) ends the run for c;
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
const MAX_CHAINS = 32;

/**
 * Short repetitions in a row (each at most {@link MANY_PASSES} passes) split a run in as many ways as the product of
 * their numbers of passes, at each start of a value that almost matches: past this many (`a{0,16}` four times in a
 * row, 17^4) that costs too much (54 ms at 61 characters unanchored, and 17 times more with each one more). @internal
 */
export const MAX_SHORT_WAYS = 50_000;

// A run in progress: the repetitions in it so far (spans), the characters they, and every required item since the
// first, can all take a run of, and the ways they split it (the product of their numbers of passes).
type Chain = {
  readonly spans: readonly (readonly [number, number])[];
  readonly shared: CharRanges;
  readonly ways: number;
};

// Which repetitions a scan follows as members of runs, and when a run is refused: long ones, three of them; short
// ones, three or more whose ways pass MAX_SHORT_WAYS.
type Rule = { readonly member: (item: RegexItem) => boolean; readonly refuses: (chain: Chain) => boolean };

const LONG: Rule = {
  member: (item) => item.max > MANY_PASSES && item.max > item.min,
  refuses: (chain) => chain.spans.length >= 3,
};
const SHORT: Rule = {
  member: (item) => item.max <= MANY_PASSES && item.max >= 2 && item.max > item.min,
  refuses: (chain) => chain.spans.length >= 3 && chain.ways >= MAX_SHORT_WAYS,
};

// Reads sequences, each item once: a plain group of one alternative (`(a*)`, `(?:a*b)`) is read as part of its
// sequence, since its items run in a row with their neighbours; any other group's alternatives start their own.
class Scan {
  found: Adjacent | null = null;

  constructor(
    private readonly runs: ReadonlyMap<RegexItem, Runs>,
    private readonly rule: Rule,
  ) {}

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
    if (this.rule.member(item)) {
      const passes = item.max - item.min + 1;
      const extended: Chain[] = [];
      for (const chain of chains) {
        const shared = intersect(chain.shared, runs);
        if (shared.length === 0) continue;
        const grown = { spans: [...chain.spans, item.at], shared, ways: chain.ways * passes };
        if (this.rule.refuses(grown)) {
          this.found = [grown.spans[0], grown.spans[1], grown.spans.at(-1)] as unknown as Adjacent;
          return;
        }
        extended.push(grown);
      }
      // A repetition that may take nothing leaves the runs before it going; one that must take something ends
      // those it cannot continue.
      const kept = empty ? chains : [];
      const next = [...kept, ...extended, { spans: [item.at], shared: runs, ways: passes }];
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
 * The source spans of the first, second and last of the repetitions in a row that can all take a run of one same
 * character, with nothing required between them that cannot, when three of them may each take many characters
 * ({@link MANY_PASSES}; `^a*a*a*b$`, `^\d+\d*[0-9]{0,20}x$`), or short ones split the run in more than
 * {@link MAX_SHORT_WAYS} ways (`a{0,16}` four times in a row); or null (`^\s*\w*$`, `^[a-z]*[0-9]*[a-z]*$`,
 * `^a{0,16}a{0,16}a{0,16}$` are fine). Pure; each item once per rule.
 * @internal
 */
export function adjacentRepetitions(
  alternatives: readonly (readonly RegexItem[])[],
  runs: ReadonlyMap<RegexItem, Runs>,
): Adjacent | null {
  for (const rule of [LONG, SHORT]) {
    const scan = new Scan(runs, rule);
    for (const items of alternatives) scan.sequence(items);
    if (scan.found !== null) return scan.found;
  }
  return null;
}
