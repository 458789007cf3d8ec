// What of a JavaScript pattern's syntax a linear-time engine cannot run, and the classes whose meaning RE2 spells
// otherwise, read by one scan over the source (escapes whole, character classes apart).

// The groups that look around, by their opening.
const LOOKAROUND: readonly (readonly [string, string])[] = [
  ['(?<=', 'lookbehind'],
  ['(?<!', 'negative lookbehind'],
  ['(?=', 'lookahead'],
  ['(?!', 'negative lookahead'],
];

// What `\s` matches in JavaScript (RE2's takes only `[\t\n\f\r ]`), as the inside of an RE2 class.
const SPACE =
  '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
// What a JavaScript `.` matches without the s flag (RE2's takes all but `\n`).
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/** One piece of a pattern's source: an escape with its letter, a class bracket, or one character. */
interface Token {
  readonly text: string;
  readonly at: number;
  readonly inClass: boolean;
}

// The tokens of `source`: `\` and the character after it together.
function* tokens(source: string): Generator<Token> {
  let inClass = false;
  for (let at = 0; at < source.length; at += 1) {
    const char = source[at] ?? '';
    if (char === '\\') {
      yield { text: source.slice(at, at + 2), at, inClass };
      at += 1;
    } else {
      yield { text: char, at, inClass };
      if (char === '[') inClass = true;
      else if (char === ']') inClass = false;
    }
  }
}

/** The construct of a JavaScript pattern. @internal */
export function backtrackingConstruct(source: string): string | null {
  for (const { text, at, inClass } of tokens(source)) {
    if (inClass) continue;
    if (/^\\[1-9k]$/.test(text)) {
      const reference = /^\\(?:[1-9][0-9]*|k<[^>]*>?)/.exec(source.slice(at))?.[0] ?? text;
      return `the backreference "${reference}"`;
    }
    if (text !== '(') continue;
    const found = LOOKAROUND.find(([opening]) => source.startsWith(opening, at));
    if (found !== undefined) return `the ${found[1]} "${found[0]}"`;
  }
  return null;
}

/**
 * An RE2 pattern with `.`, `\s` and `\S` (outside classes) and `\s` (inside one) spelt as JavaScript means them: `.`
 * without the line terminators `\r`, U+2028 and U+2029, `\s` with `\v` and the Unicode spaces. @internal
 */
export function withJavaScriptClasses(re2Source: string): string {
  let out = '';
  for (const { text, inClass } of tokens(re2Source)) {
    if (text === '\\s') out += inClass ? SPACE : `[${SPACE}]`;
    else if (text === '\\S' && !inClass) out += `[^${SPACE}]`;
    else if (text === '.' && !inClass) out += DOT;
    // A bracket in a class is a plain one in JavaScript; RE2 would read `[[:alpha:]]` as a POSIX class.
    else if (text === '[' && inClass) out += '\\[';
    else out += text;
  }
  return out;
}
