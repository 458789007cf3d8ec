// A small reader of regular-expression source, enough to see its shape: atoms with the characters they can match
// (bounded from both sides: what it does not model may match anything and surely matches nothing, so conclusions
// drawn from either bound stay conservative), groups with their alternatives, assertions, and quantifiers.
import { type CharBounds, exactly, ignoringCase, mergeRanges, negated, UNKNOWN } from './char-ranges.js';
import { pushAll } from './record.js';
import { dotOf, readEscape } from './regex-escape.js';

/** One item of a sequence, with its quantifier (`max` Infinity when unbounded) and source span (`at`): an atom; a
 * group, with each alternative's span and whether it is a lookaround (it matches no characters, and may fail); or
 * a zero-width assertion (`^`, `$`, `\b`, `\B`), which may fail. @internal */
export type RegexItem = { readonly at: readonly [number, number] } & (
  | ({ readonly kind: 'atom'; readonly min: number; readonly max: number } & CharBounds)
  | {
      readonly kind: 'group';
      readonly alternatives: RegexItem[][];
      readonly spans: (readonly [number, number])[];
      readonly lookaround: boolean;
      readonly min: number;
      readonly max: number;
    }
  | { readonly kind: 'assertion'; readonly min: 1; readonly max: 1 }
);

// Sticky, read at the reader's index: a bound of any length is read whole (`{2,99999999999999999999999999999999}`).
const QUANTIFIER = /\{(\d+)(,(\d*))?\}\??/y;
// The one-character quantifiers, as [min, max].
const SIMPLE_QUANTIFIERS: Readonly<Record<string, readonly [number, number]>> = {
  '*': [0, Number.POSITIVE_INFINITY],
  '+': [1, Number.POSITIVE_INFINITY],
  '?': [0, 1],
};
// A modifiers group's prefix, read at the reader's index: `?i:`, `?-s:`, `?i-m:`.
const MODIFIERS = /\?[a-zA-Z]*-?[a-zA-Z]*:/y;
// Reads one source left to right.
class Reader {
  private index = 0;
  constructor(
    private readonly source: string,
    private readonly dot: CharBounds,
  ) {}

  get done(): boolean {
    return this.index >= this.source.length;
  }

  // The alternatives of a sequence, up to a `)` that closes it (left for the caller) or the end, each with its
  // source span; `ignoreCase` when the `i` flag of a modifiers group is on.
  alternatives(ignoreCase: boolean): { alternatives: RegexItem[][]; spans: [number, number][] } {
    const alternatives: RegexItem[][] = [[]];
    const spans: [number, number][] = [[this.index, this.index]];
    while (!this.done && this.peek() !== ')') {
      const start = this.index;
      const char = this.next();
      const current = alternatives[alternatives.length - 1] as RegexItem[];
      if (char === '|') {
        alternatives.push([]);
        spans.push([this.index, this.index]);
        continue;
      }
      if (char === '(') {
        const prefix = this.groupPrefix(ignoreCase);
        const inner = this.alternatives(prefix.ignoreCase);
        this.index++;
        const group = { kind: 'group', ...inner, lookaround: prefix.lookaround, ...this.quantifier() } as const;
        current.push({ ...group, at: [start, this.index] });
      } else {
        const bounds = char === '\\' ? this.escape() : char === '[' ? this.charClass(ignoreCase) : this.literal(char);
        const item =
          bounds === 'zero-width'
            ? ({ kind: 'assertion', min: 1, max: 1 } as const)
            : ({ kind: 'atom', ...(ignoreCase ? ignoringCase(bounds) : bounds), ...this.quantifier() } as const);
        current.push({ ...item, at: [start, this.index] });
      }
      (spans[spans.length - 1] as [number, number])[1] = this.index;
    }
    return { alternatives, spans };
  }

  // Skips a `)` with nothing to close (the reader then goes on).
  skipStray(): void {
    this.index++;
  }

  private peek(offset = 0): string {
    return this.source[this.index + offset] ?? '';
  }

  private next(): string {
    return this.source[this.index++] ?? '';
  }

  // Reads what follows a `(`: `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>`, modifiers `?i-m:`, or nothing.
  private groupPrefix(ignoreCase: boolean): { lookaround: boolean; ignoreCase: boolean } {
    const plain = { lookaround: false, ignoreCase };
    if (this.peek() !== '?') return plain;
    // Modifiers, `(?i:` or `(?-s:` (newer engines): the prefix ends at its colon.
    MODIFIERS.lastIndex = this.index;
    const modifiers = /[a-zA-Z-]/.test(this.peek(1)) ? MODIFIERS.exec(this.source) : null;
    if (modifiers !== null) {
      this.index = MODIFIERS.lastIndex;
      const [on = '', off = ''] = modifiers[0].split('-');
      return { lookaround: false, ignoreCase: off.includes('i') ? false : on.includes('i') || ignoreCase };
    }
    if (this.peek(1) !== '<' || this.peek(2) === '=' || this.peek(2) === '!') {
      const lookaround = this.peek(1) !== ':';
      this.index += this.peek(1) === '<' ? 3 : 2;
      return { lookaround, ignoreCase };
    }
    const close = this.source.indexOf('>', this.index);
    this.index = close === -1 ? this.source.length : close + 1;
    return plain;
  }

  // A character outside escapes and classes: `.` or itself.
  private literal(char: string): CharBounds | 'zero-width' {
    if (char === '^' || char === '$') return 'zero-width';
    const code = char.codePointAt(0) ?? 0;
    return char === '.' ? this.dot : exactly([[code, code]]);
  }

  // One escape (after its backslash): the characters it matches; 'zero-width' for \b and \B.
  private escape(): CharBounds | 'zero-width' {
    const read = readEscape(this.source, this.index);
    this.index = read.end;
    return read.bounds;
  }

  // One member of a class: a code point, or the characters of a class escape.
  private classMember(): number | CharBounds {
    if (this.peek() !== '\\') return this.next().codePointAt(0) ?? 0;
    this.index++;
    const bounds = this.escape();
    if (bounds === 'zero-width') return 8;
    const only = bounds.chars[0];
    const single = bounds.chars.length === 1 && only !== undefined && only[0] === only[1];
    return single ? only[0] : bounds;
  }

  // A `[...]` class (after its `[`): its bounds, folded under `i` and then swapped when negated.
  private charClass(ignoreCase: boolean): CharBounds {
    const negate = this.peek() === '^';
    if (negate) this.index++;
    const chars: (readonly [number, number])[] = [];
    const sure: (readonly [number, number])[] = [];
    // As in JavaScript, a `]` right after `[` or `[^` closes the class: `[]` matches nothing, `[^]` anything.
    while (!this.done && this.peek() !== ']') {
      const low = this.classMember();
      if (typeof low !== 'number') {
        pushAll(chars, low.chars);
        pushAll(sure, low.sure);
      } else if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.index++;
        const high = this.classMember();
        // A range to a class escape (`[a-\d]`) is not modelled.
        const range = typeof high === 'number' ? ([Math.min(low, high), Math.max(low, high)] as const) : null;
        if (range === null) pushAll(chars, UNKNOWN.chars);
        else {
          chars.push(range);
          sure.push(range);
        }
      } else {
        chars.push([low, low]);
        sure.push([low, low]);
      }
    }
    this.index++;
    const exact = exactly(mergeRanges(sure));
    const bounds = { chars: mergeRanges(chars), sure: exact.sure };
    const folded = ignoreCase ? ignoringCase(bounds) : bounds;
    return negate ? negated(folded) : folded;
  }

  // The quantifier at the current position ({ min: 1, max: 1 } when there is none); a lazy `?` is skipped.
  private quantifier(): { min: number; max: number } {
    const char = this.peek();
    const simple = SIMPLE_QUANTIFIERS[char];
    if (simple !== undefined) {
      this.index += this.peek(1) === '?' ? 2 : 1;
      return { min: simple[0], max: simple[1] };
    }
    QUANTIFIER.lastIndex = this.index;
    const braces = char === '{' ? QUANTIFIER.exec(this.source) : null;
    if (braces === null) return { min: 1, max: 1 };
    this.index += braces[0].length;
    const min = Number(braces[1]);
    const max = braces[2] === undefined ? min : braces[3] === '' ? Number.POSITIVE_INFINITY : Number(braces[3]);
    return { min, max };
  }
}

/** Reads `source`, compiled with `flags` (unknown when absent), into its alternatives. Pure. @internal */
export function parseRegex(source: string, flags?: string): RegexItem[][] {
  const reader = new Reader(source, dotOf(source, flags));
  const top: RegexItem[][] = [];
  while (!reader.done) {
    pushAll(top, reader.alternatives(false).alternatives);
    reader.skipStray();
  }
  return top.length === 0 ? [[]] : top;
}
