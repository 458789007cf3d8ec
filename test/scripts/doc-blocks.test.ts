import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockModule, type DocBlock, pointToMarkdown, tsBlocks } from '../../scripts/doc-blocks.js';

const fence = (source: string, mark = ''): string => `${mark === '' ? '' : `${mark}\n`}\`\`\`ts\n${source}\n\`\`\``;

describe('the TypeScript blocks of the docs', () => {
  it('finds each ```ts block with the line its fence opens on, and only those', () => {
    const text = ['# Title', fence('const a = 1;'), '```json', '{}', '```', '```tsx', 'x', '```', fence('a\nb')].join(
      '\n',
    );
    expect(tsBlocks('README.md', text)).toEqual({
      blocks: [
        { file: 'README.md', line: 2, source: 'const a = 1;' },
        { file: 'README.md', line: 11, source: 'a\nb' },
      ],
      skipped: 0,
    });
  });

  it('leaves out a block marked no-check with a reason, and counts it; a bare mark does not count', () => {
    const text = [fence('skipped', '<!-- no-check: not a dependency -->'), fence('kept', '<!-- no-check -->')].join(
      '\n',
    );
    const found = tsBlocks('docs/x.md', text);
    expect(found.skipped).toBe(1);
    expect(found.blocks.map((block) => block.source)).toEqual(['kept']);
  });

  it('refuses a block that is never closed, naming its line', () => {
    expect(() => tsBlocks('docs/x.md', 'text\n```ts\nconst a = 1;\n')).toThrow(
      'docs/x.md:2: a ```ts block is never closed',
    );
  });

  it('finds every block of any document built from blocks and prose, at its line (property)', () => {
    const line = fc.stringMatching(/^[a-z =;]{0,20}$/);
    const part = fc.oneof(
      fc.record({ code: fc.array(line, { minLength: 1, maxLength: 4 }) }),
      fc.record({ prose: line }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const lines: string[] = [];
        const expected: { line: number; source: string }[] = [];
        for (const item of parts) {
          if ('prose' in item) lines.push(item.prose);
          else {
            expected.push({ line: lines.length + 1, source: item.code.join('\n') });
            lines.push('```ts', ...item.code, '```');
          }
        }
        const found = tsBlocks('f.md', lines.join('\n'));
        expect(found.blocks.map(({ line: at, source }) => ({ line: at, source }))).toEqual(expected);
      }),
    );
  });

  it('checks each block as a module of its own', () => {
    expect(blockModule({ file: 'f.md', line: 1, source: 'await run();' })).toBe('await run();\nexport {};\n');
  });

  it("points tsc's errors at the Markdown line a block's error is on, and keeps the others", () => {
    const origin = new Map<string, DocBlock>([['README-line-57.ts', { file: 'README.md', line: 57, source: '' }]]);
    const output = [
      "temp/doc-blocks/README-line-57.ts(3,9): error TS2304: Cannot find name 'x'.",
      "temp/doc-blocks/ambient.d.ts(1,1): error TS1005: ';' expected.",
    ].join('\n');
    expect(pointToMarkdown(output, 'temp/doc-blocks', origin).split('\n')).toEqual([
      "README.md:60 (README-line-57.ts): error TS2304: Cannot find name 'x'.",
      "temp/doc-blocks/ambient.d.ts(1,1): error TS1005: ';' expected.",
    ]);
  });
});
