import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownCell, markdownCode, markdownText, mermaidText } from '../../src/kit/markdown.js';

// What a quoted id may try: a heading of its own, raw HTML, a cell break, a code span break.
const HOSTILE = 'FR-1\n## Injected heading\r\n<script>alert(1)</script> | a & b `x`';

describe('Markdown escaping of quoted values', () => {
  it('keeps a value on one line, with & and < as entities', () => {
    expect(markdownText(HOSTILE)).toBe('FR-1 ## Injected heading &lt;script>alert(1)&lt;/script> | a &amp; b `x`');
    expect(markdownText('score >= 80')).toBe('score >= 80');
  });

  it('escapes backslashes and pipes in a table cell, and backticks in inline code', () => {
    expect(markdownCell('a|b\\|c')).toBe('a\\|b\\\\\\|c');
    expect(markdownCode('a`b\nc')).toBe("`a'b c`");
    expect(mermaidText('a"b<c>|#')).toBe('a#quot;b#lt;c#gt;#124;#35;');
  });

  it('never lets a value break a line, open a tag or end a cell (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const text = markdownText(value);
        expect(text).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(text).not.toContain('<');
        expect(markdownCell(value)).not.toMatch(/(^|[^\\])(\\\\)*\|/);
        expect(markdownCode(value).slice(1, -1)).not.toContain('`');
      }),
    );
  });
});
