// The names in a unified diff's headers as git writes them: C-quoted when they hold special characters
// (`"a/caf\303\251.txt"`, the bytes of a UTF-8 name in octal), else as they are; a `diff --git` line holds two.

/** A header's name: C-quoted (git quotes names with special characters) or the rest of the line; null when malformed or empty. @internal */
export function readName(text: string): string | null {
  if (!text.startsWith('"')) return text;
  const quoted = readQuoted(text);
  return quoted === null || quoted.name === '' ? null : quoted.name;
}

const ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

// A C-quoted name at the start of `text` (its bytes decoded as UTF-8) and where it ends, or null when malformed.
function readQuoted(text: string): { readonly name: string; readonly end: number } | null {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let at = 1; at < text.length; at++) {
    const point = text.codePointAt(at) ?? 0;
    const char = String.fromCodePoint(point);
    if (char === '"') return { name: new TextDecoder().decode(new Uint8Array(bytes)), end: at + 1 };
    if (char !== '\\') {
      bytes.push(...encoder.encode(char));
      at += char.length - 1;
      continue;
    }
    const next = text[at + 1] ?? '';
    const octal = /^[0-3][0-7]{2}/.exec(text.slice(at + 1, at + 4));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      at += 3;
    } else if (ESCAPES[next] !== undefined) {
      bytes.push(ESCAPES[next]);
      at += 1;
    } else return null;
  }
  return null;
}

/** The names of a `diff --git` line (after `diff --git `), or null when its quoting is malformed. @internal */
export function diffGitNames(rest: string): string[] | null {
  if (!rest.includes('"')) return unquotedNames(rest);
  let first: string;
  let remainder: string;
  if (rest.startsWith('"')) {
    const quoted = readQuoted(rest);
    if (quoted === null) return null;
    first = quoted.name;
    remainder = rest.slice(quoted.end).replace(/^ /, '');
  } else {
    // Git quotes a name holding a double quote, so an unquoted first name ends where the quoted second begins.
    const at = rest.indexOf(' "');
    if (at < 0) return null;
    first = rest.slice(0, at);
    remainder = rest.slice(at + 1);
  }
  const second = readName(remainder);
  return second === null ? null : [first, second];
}

// Unquoted names split where git splits them: at the space after which both names are the same once their
// first folder (`a/`, `b/`) is dropped. Without such a space (a rename), every word is taken as a name, to be safe.
function unquotedNames(rest: string): string[] {
  for (let at = rest.indexOf(' '); at >= 0; at = rest.indexOf(' ', at + 1)) {
    const first = rest.slice(0, at);
    const second = rest.slice(at + 1);
    const name = first.slice(first.indexOf('/') + 1);
    if (name !== '' && first.includes('/') && second.includes('/') && name === second.slice(second.indexOf('/') + 1))
      return [first, second];
  }
  return rest.split(' ').filter((word) => word !== '');
}
