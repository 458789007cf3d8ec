// Checks every ```mermaid block of Markdown files with mermaid's own parser (see scripts/mermaid-parse.ts for
// the method: `mermaid.parse` of the installed mermaid 11, DOMPurify given pass-through hooks since Node has
// no DOM). Usage: tsx scripts/check-mermaid.ts <file.md | -> ... ("-" reads standard input). Exit 0 when every
// file has at least one block and every block parses; 1 otherwise, naming the file, the block's line and the error.
import { readFile } from 'node:fs/promises';
import { extractMermaidBlocks, mermaidError } from './mermaid-parse.js';

async function readInput(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: tsx scripts/check-mermaid.ts <file.md | -> ...');
  process.exit(1);
}
let failures = 0;
for (const file of files) {
  const name = file === '-' ? 'standard input' : file;
  const blocks = extractMermaidBlocks(await readInput(file));
  if (blocks.length === 0) {
    console.error(`${name}: no mermaid block`);
    failures += 1;
  }
  for (const block of blocks) {
    const error = await mermaidError(block.source);
    if (error === null)
      console.log(`${name}:${block.line}: mermaid block ok (${block.source.split('\n').length} lines)`);
    else {
      console.error(`${name}:${block.line}: mermaid block rejected by mermaid's parser:\n${error}`);
      failures += 1;
    }
  }
}
process.exitCode = failures === 0 ? 0 : 1;
