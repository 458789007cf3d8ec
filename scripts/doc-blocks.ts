// The ```ts blocks of a Markdown text and where tsc's errors on them point back to, for scripts/check-doc-blocks.ts.

/** One ```ts block: the Markdown file, the line its fence opens on (1-based) and its source. */
export interface DocBlock {
  readonly file: string;
  readonly line: number;
  readonly source: string;
}

/** The mark, on the line before a fence, that leaves a block out of the check; it must say why. */
export const NO_CHECK = /^<!-- no-check: .+ -->$/;

/**
 * The ```ts blocks of `text` in order, and how many were marked no-check. A block that is never closed throws, naming
 * its line: checking half a block would report errors that are not there. Pure.
 */
export function tsBlocks(file: string, text: string): { blocks: DocBlock[]; skipped: number } {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let skipped = 0;
  for (let at = 0; at < lines.length; at += 1) {
    if (!/^```ts\s*$/.test(lines[at] ?? '')) continue;
    const close = lines.findIndex((line, index) => index > at && line.startsWith('```'));
    if (close < 0) throw new Error(`${file}:${at + 1}: a \`\`\`ts block is never closed`);
    if (NO_CHECK.test(lines[at - 1] ?? '')) skipped += 1;
    else blocks.push({ file, line: at + 1, source: lines.slice(at + 1, close).join('\n') });
    at = close;
  }
  return { blocks, skipped };
}

/** The module a block is checked as: its source, made a module so top-level await works and its names stay its own. */
export function blockModule(block: DocBlock): string {
  return `${block.source}\nexport {};\n`;
}

/**
 * tsc's output with each `<folder>/<module>(row,col)` of a block's module rewritten as the Markdown line it comes
 * from (`README.md:57 (<module>)`); other lines are kept as they are. Pure.
 */
export function pointToMarkdown(output: string, folder: string, origin: ReadonlyMap<string, DocBlock>): string {
  const escaped = folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return output.replace(
    new RegExp(`^${escaped}/([^(\\s]+)\\((\\d+),(\\d+)\\)`, 'gm'),
    (all, name: string, row: string) => {
      const block = origin.get(name);
      return block === undefined ? all : `${block.file}:${block.line + Number(row)} (${name})`;
    },
  );
}
