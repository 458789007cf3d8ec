/** An XML token (element open with decoded attributes, close, or raw text/CDATA) at offset `at`. @internal */
export type XmlToken =
  | {
      readonly kind: 'open';
      readonly name: string;
      readonly attributes: ReadonlyMap<string, string>;
      readonly selfClosing: boolean;
      readonly at: number;
    }
  | { readonly kind: 'close'; readonly name: string; readonly at: number }
  | { readonly kind: 'text'; readonly raw: string; readonly cdata: boolean; readonly at: number };

/** What a token visitor returns: nothing to go on, or a message that stops the scan. @internal */
export type XmlVisit = (token: XmlToken) => string | undefined;

const ENTITY = /&(?:#x([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|(lt|gt|amp|quot|apos));/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five named entities and numeric references; unknown ones are left as written. Pure. @internal */
export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(ENTITY, (whole: string, hex?: string, dec?: string, named?: string) => {
    if (named !== undefined) return NAMED[named] ?? whole;
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : whole;
  });
}

// The message with the line and column of `at`.
function located(text: string, at: number, message: string): string {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `${message} at line ${line}, column ${column}`;
}

// True for the characters that may start a name (ASCII letters, `_`, `:`), by char code.
const nameStart = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 58;

// True for the characters that may continue a name: those, digits, `-` and `.`.
const nameChar = (code: number): boolean => nameStart(code) || (code >= 48 && code <= 57) || code === 45 || code === 46;

// Reads a name at `at`: its text, or null. A character loop, not a regex: this runs for every tag and attribute.
function nameAt(text: string, at: number): string | null {
  if (!nameStart(text.charCodeAt(at))) return null;
  let end = at + 1;
  while (nameChar(text.charCodeAt(end))) end += 1;
  return text.slice(at, end);
}

// The offset after the whitespace (space, tab, CR, LF) at `at`.
function skipSpace(text: string, at: number): number {
  let end = at;
  for (;;) {
    const code = text.charCodeAt(end);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return end;
    end += 1;
  }
}

/** One linear pass over the XML subset test reports use; null when scanned, else the first problem's line:column. @internal */
export function scanXml(text: string, visit: XmlVisit): string | null {
  const skips: readonly [string, string, string][] = [
    ['<!--', '-->', 'a comment'],
    ['<![CDATA[', ']]>', 'a CDATA section'],
    ['<?', '?>', 'a processing instruction'],
    ['<!', '>', 'a declaration'],
  ];
  let at = 0;
  scan: while (at < text.length) {
    const lt = text.indexOf('<', at);
    const end = lt < 0 ? text.length : lt;
    if (end > at) {
      const refused = visit({ kind: 'text', raw: text.slice(at, end), cdata: false, at });
      if (refused !== undefined) return located(text, at, refused);
    }
    if (lt < 0) return null;
    const next = text.charCodeAt(lt + 1);
    // Only "<!" and "<?" start something skipped (comment, CDATA, declaration, processing instruction).
    for (const [open, close, what] of next === 33 || next === 63 ? skips : []) {
      if (!text.startsWith(open, lt)) continue;
      const closeAt = text.indexOf(close, lt + open.length);
      if (closeAt < 0) return located(text, lt, `${what} is not terminated (no "${close}")`);
      if (open === '<![CDATA[') {
        const refused = visit({ kind: 'text', raw: text.slice(lt + open.length, closeAt), cdata: true, at: lt });
        if (refused !== undefined) return located(text, lt, refused);
      }
      at = closeAt + close.length;
      continue scan;
    }
    const closing = text.startsWith('</', lt);
    const name = nameAt(text, lt + (closing ? 2 : 1));
    if (name === null) return located(text, lt, 'a "<" that starts no tag (a literal "<" is written "&lt;")');
    const after = lt + (closing ? 2 : 1) + name.length;
    const token = closing ? closeTag(text, name, lt, after) : openTag(text, name, lt, after);
    if (typeof token === 'string') return token;
    const refused = visit(token.token);
    if (refused !== undefined) return located(text, lt, refused);
    at = token.next;
  }
  return null;
}

type Scanned = { readonly token: XmlToken; readonly next: number } | string;

// Reads the end of a closing tag `</name  >`.
function closeTag(text: string, name: string, lt: number, after: number): Scanned {
  const end = skipSpace(text, after);
  if (text[end] !== '>') return located(text, end, `expected ">" to end </${name}>`);
  return { token: { kind: 'close', name, at: lt }, next: end + 1 };
}

// Reads the attributes and the end (`>` or `/>`) of an opening tag.
function openTag(text: string, name: string, lt: number, after: number): Scanned {
  const attributes = new Map<string, string>();
  let at = after;
  for (;;) {
    const spaced = skipSpace(text, at);
    const char = text[spaced];
    if (char === undefined) return located(text, lt, `the <${name}> tag is not terminated`);
    if (char === '>' || (char === '/' && text[spaced + 1] === '>')) {
      const selfClosing = char === '/';
      return { token: { kind: 'open', name, attributes, selfClosing, at: lt }, next: spaced + (selfClosing ? 2 : 1) };
    }
    const attribute = spaced > at ? nameAt(text, spaced) : null;
    if (attribute === null) return located(text, spaced, `expected an attribute, ">" or "/>" in the <${name}> tag`);
    const equals = skipSpace(text, spaced + attribute.length);
    if (text[equals] !== '=') return located(text, equals, `expected "=" after the attribute ${attribute}`);
    const open = skipSpace(text, equals + 1);
    const quote = text[open];
    if (quote !== '"' && quote !== "'") return located(text, open, `expected a quoted value for ${attribute}`);
    const close = text.indexOf(quote, open + 1);
    if (close < 0) return located(text, open, `the value of ${attribute} is not terminated`);
    attributes.set(attribute, decodeEntities(text.slice(open + 1, close)));
    at = close + 1;
  }
}
