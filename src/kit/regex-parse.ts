// A small reader of regular-expression source, enough to see its shape: atoms with the characters they can match,
// groups with their alternatives, and the quantifier on each item. What it does not model (a backreference, a
// Unicode property, `.`) is an atom that can match any character, so conclusions drawn from it stay conservative.
import { ANY_CHAR, type CharRanges, complement, DIGIT, mergeRanges, SPACE, WORD } from './char-ranges.js';

/** One item of a sequence: an atom or a group, with its quantifier (`max` Infinity when unbounded). @internal */
export type RegexItem =
  | { readonly kind: 'atom'; readonly chars: CharRanges; readonly min: number; readonly max: number }
  | { readonly kind: 'group'; readonly alternatives: RegexItem[][]; readonly min: number; readonly max: number };

const CONTROL: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, v: 11, f: 12 };
// Sticky, read at the reader's index: a bound of any length is read whole (`{2,99999999999999999999999999999999}`).
const QUANTIFIER = /\{(\d+)(,(\d*))?\}\??/y;
// A modifiers group's prefix, read at the reader's index: `?i:`, `?-s:`, `?i-m:`.
const MODIFIERS = /\?[a-zA-Z]*-?[a-zA-Z]*:/y;
// What follows a backslash beyond its letter: `\x41`, `\u0041`, `\u{41}`, `\p{L}`, `\k<name>`, `\cJ`, `\12`.
const ESCAPE_PAYLOAD: Readonly<Record<string, RegExp>> = {
  x: /[0-9A-Fa-f]{2}/y,
  u: /[0-9A-Fa-f]{4}|\{[0-9A-Fa-f]+\}/y,
  p: /\{[^}]*\}?/y,
  P: /\{[^}]*\}?/y,
  k: /<[^>]*>?/y,
  c: /[A-Za-z]/y,
};

// Reads one source left to right.
class Reader {
  private index = 0;
  constructor(private readonly source: string) {}

  get done(): boolean {
    return this.index >= this.source.length;
  }

  // The alternatives of a sequence, up to a `)` that closes it (left for the caller) or the end.
  alternatives(): RegexItem[][] {
    const out: RegexItem[][] = [[]];
    while (!this.done && this.peek() !== ')') {
      const char = this.next();
      const current = out[out.length - 1] as RegexItem[];
      if (char === '|') out.push([]);
      else if (char === '(') {
        this.skipGroupPrefix();
        const inner = this.alternatives();
        this.index++;
        current.push({ kind: 'group', alternatives: inner, ...this.quantifier() });
      } else if (char !== '^' && char !== '$') {
        const chars = char === '\\' ? this.escape() : char === '[' ? this.charClass() : char === '.' ? ANY_CHAR : null;
        if (chars === 'zero-width') continue;
        const code = char.codePointAt(0) ?? 0;
        current.push({ kind: 'atom', chars: chars ?? [[code, code]], ...this.quantifier() });
      }
    }
    return out;
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

  // `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>` after a `(`.
  private skipGroupPrefix(): void {
    if (this.peek() !== '?') return;
    // Modifiers, `(?i:` or `(?-s:` (newer engines): the prefix ends at its colon.
    MODIFIERS.lastIndex = this.index;
    if (/[a-zA-Z-]/.test(this.peek(1)) && MODIFIERS.test(this.source)) {
      this.index = MODIFIERS.lastIndex;
      return;
    }
    if (this.peek(1) !== '<' || this.peek(2) === '=' || this.peek(2) === '!') {
      this.index += this.peek(1) === '<' ? 3 : 2;
      return;
    }
    const close = this.source.indexOf('>', this.index);
    this.index = close === -1 ? this.source.length : close + 1;
  }

  // One escape (after its backslash): the characters it matches; 'zero-width' for \b and \B.
  private escape(): CharRanges | 'zero-width' {
    const letter = this.next();
    if (letter === 'b' || letter === 'B') return 'zero-width';
    const base = letter === 'd' || letter === 'D' ? DIGIT : letter === 'w' || letter === 'W' ? WORD : null;
    const classed = base ?? (letter === 's' || letter === 'S' ? SPACE : null);
    if (classed !== null) return letter === letter.toLowerCase() ? classed : complement(classed);
    if (/[0-9]/.test(letter)) {
      // A backreference (or `\0`): its digits are one escape, and what it matches is not modelled.
      while (/[0-9]/.test(this.peek())) this.index++;
      return ANY_CHAR;
    }
    const pattern = ESCAPE_PAYLOAD[letter];
    const payload = pattern === undefined ? null : this.take(pattern);
    if (payload !== null) {
      const code = escapedCode(letter, payload);
      return code === null ? ANY_CHAR : [[code, code]];
    }
    const code = CONTROL[letter] ?? letter.codePointAt(0) ?? 0;
    return [[code, code]];
  }

  // The text `pattern` (sticky) matches at the current position, consumed; null when it does not match there.
  private take(pattern: RegExp): string | null {
    pattern.lastIndex = this.index;
    const match = pattern.exec(this.source);
    if (match === null) return null;
    this.index += match[0].length;
    return match[0];
  }

  // One member of a class: a code point, or the characters of a class escape.
  private classMember(): number | CharRanges {
    if (this.peek() !== '\\') return this.next().codePointAt(0) ?? 0;
    this.index++;
    const chars = this.escape();
    if (chars === 'zero-width') return 8;
    const only = chars[0];
    return chars.length === 1 && only !== undefined && only[0] === only[1] ? only[0] : chars;
  }

  // A `[...]` class (after its `[`): its ranges, complemented when negated.
  private charClass(): CharRanges {
    const negated = this.peek() === '^';
    if (negated) this.index++;
    const ranges: (readonly [number, number])[] = [];
    // As in JavaScript, a `]` right after `[` or `[^` closes the class: `[]` matches nothing, `[^]` anything.
    while (!this.done && this.peek() !== ']') {
      const low = this.classMember();
      if (typeof low !== 'number') ranges.push(...low);
      else if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.index++;
        const high = this.classMember();
        if (typeof high !== 'number') return ANY_CHAR;
        ranges.push([Math.min(low, high), Math.max(low, high)]);
      } else ranges.push([low, low]);
    }
    this.index++;
    const merged = mergeRanges(ranges);
    return negated ? complement(merged) : merged;
  }

  // The quantifier at the current position ({ min: 1, max: 1 } when there is none); a lazy `?` is skipped.
  private quantifier(): { min: number; max: number } {
    const char = this.peek();
    const simple =
      char === '*'
        ? [0, Number.POSITIVE_INFINITY]
        : char === '+'
          ? [1, Number.POSITIVE_INFINITY]
          : char === '?'
            ? [0, 1]
            : null;
    if (simple !== null) {
      this.index += this.peek(1) === '?' ? 2 : 1;
      return { min: simple[0] as number, max: simple[1] as number };
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

// The code point an escape with a payload names (`\x41`, `\u0041`, `\cJ`), or null when it stands for more than one
// (`\p{L}`, `\k<name>`) or for a code point that literals, read as UTF-16 units, could not be compared with.
function escapedCode(letter: string, payload: string): number | null {
  if (letter === 'c') return (payload.codePointAt(0) ?? 0) % 32;
  if (letter !== 'x' && letter !== 'u') return null;
  const code = Number.parseInt(payload.replace(/[{}]/g, ''), 16);
  return code <= 0xffff ? code : null;
}

/** Reads `source` into its alternatives; syntax it does not model becomes atoms that match anything. Pure. @internal */
export function parseRegex(source: string): RegexItem[][] {
  const reader = new Reader(source);
  const top: RegexItem[][] = [];
  while (!reader.done) {
    top.push(...reader.alternatives());
    reader.skipStray();
  }
  return top.length === 0 ? [[]] : top;
}
