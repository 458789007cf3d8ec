// One escape of a regular expression's source, read whole, and the dot: the characters each matches, bounded from
// both sides (CharBounds), and where an escape ends. What it does not model (a backreference, a Unicode property, a
// named reference) may match anything and surely matches nothing; syntax the reader does not model becomes such
// atoms too.
import {
  type CharBounds,
  complement,
  DIGIT,
  DOT,
  DOT_WITHOUT_S,
  exactly,
  SPACE,
  UNKNOWN,
  WORD,
} from './char-ranges.js';

const CONTROL: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, v: 11, f: 12 };
// What follows a backslash beyond its letter: `\x41`, `\u0041`, `\u{41}`, `\p{L}`, `\k<name>`, `\cJ`, `\12`.
const ESCAPE_PAYLOAD: Readonly<Record<string, RegExp>> = {
  x: /[0-9A-Fa-f]{2}/y,
  u: /[0-9A-Fa-f]{4}|\{[0-9A-Fa-f]+\}/y,
  p: /\{[^}]*\}?/y,
  P: /\{[^}]*\}?/y,
  k: /<[^>]*>?/y,
  c: /[A-Za-z]/y,
};

// The code point an escape with a payload names (`\x41`, `\u0041`, `\cJ`), or null when it stands for more than one
// (`\p{L}`, `\k<name>`) or for a code point that literals, read as UTF-16 units, could not be compared with.
function escapedCode(letter: string, payload: string): number | null {
  if (letter === 'c') return (payload.codePointAt(0) ?? 0) % 32;
  if (letter !== 'x' && letter !== 'u') return null;
  const code = Number.parseInt(payload.replace(/[{}]/g, ''), 16);
  return code <= 0xffff ? code : null;
}

/**
 * The escape whose letter is at `start` in `source` (just after its backslash): what it matches ('zero-width'
 * for `\b` and `\B`) and the index just past it. Pure. @internal
 */
export function readEscape(source: string, start: number): { bounds: CharBounds | 'zero-width'; end: number } {
  const letter = source[start] ?? '';
  let end = start + 1;
  if (letter === 'b' || letter === 'B') return { bounds: 'zero-width', end };
  const base = letter === 'd' || letter === 'D' ? DIGIT : letter === 'w' || letter === 'W' ? WORD : null;
  const classed = base ?? (letter === 's' || letter === 'S' ? SPACE : null);
  if (classed !== null)
    return { bounds: exactly(letter === letter.toLowerCase() ? classed : complement(classed)), end };
  if (/[0-9]/.test(letter)) {
    // A backreference (or `\0`): its digits are one escape, and what it matches is not modelled.
    while (/[0-9]/.test(source[end] ?? '')) end++;
    return { bounds: UNKNOWN, end };
  }
  const pattern = ESCAPE_PAYLOAD[letter];
  if (pattern !== undefined) {
    pattern.lastIndex = end;
    const payload = pattern.exec(source)?.[0];
    if (payload !== undefined) {
      const code = escapedCode(letter, payload);
      return { bounds: code === null ? UNKNOWN : exactly([[code, code]]), end: end + payload.length };
    }
  }
  const code = CONTROL[letter] ?? letter.codePointAt(0) ?? 0;
  return { bounds: exactly([[code, code]]), end };
}

/**
 * What `.` matches in `source`: no line terminator when the flags are known and hold no `s` (and no modifiers group
 * turns it on, `(?s:…)`), else maybe anything. @internal
 */
export function dotOf(source: string, flags: string | undefined): CharBounds {
  if (flags === undefined || flags.includes('s') || /\(\?[a-zA-Z]*s[a-zA-Z]*(?:-[a-zA-Z]*)?:/.test(source)) return DOT;
  return DOT_WITHOUT_S;
}
