// A run of line breaks or other control characters (C0, DEL, C1, the Unicode line and paragraph separators),
// with the whitespace around it: one space, so a value read from a file never starts a new line of output.
const BREAKS = /[\s\p{Cc}]*[\p{Cc}\u2028\u2029]+[\s\p{Cc}]*/gu;

/** Text on one line: every run of line breaks and control characters (with the whitespace around it) becomes one space. @internal */
export function oneLine(text: string): string {
  return text.replace(BREAKS, ' ').trim();
}

/** A quoted value as Markdown prose. @internal */
export function markdownText(value: string): string {
  return oneLine(value).replaceAll('&', '&amp;').replaceAll('<', '&lt;');
}

/** A quoted value for one cell of a Markdown table. @internal */
export function markdownCell(value: string): string {
  return markdownText(value).replaceAll('\\', '\\\\').replaceAll('|', '\\|');
}

/** A path or an id as Markdown inline code, on one line (a backtick inside would end the span early, so it shows as `'`). @internal */
export function markdownCode(value: string): string {
  return `\`${oneLine(value).replaceAll('`', "'")}\``;
}

/** Text inside a quoted Mermaid label, on one line. @internal */
export function mermaidText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replaceAll('#', '#35;')
    .replaceAll('"', '#quot;')
    .replaceAll('<', '#lt;')
    .replaceAll('>', '#gt;')
    .replaceAll('|', '#124;');
}
