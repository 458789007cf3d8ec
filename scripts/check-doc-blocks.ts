// Type-checks every ```ts block of README.md and docs/*.md: each block becomes a module of temp/doc-blocks/ that
// imports the package by its name (tsconfig `paths` to src/), and `tsc --noEmit` checks them all at once.
// A block marked `<!-- no-check: why -->` on the line before it is skipped. Usage: tsx scripts/check-doc-blocks.ts
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface Block {
  readonly file: string;
  readonly line: number;
  readonly source: string;
}

const out = 'temp/doc-blocks';
const markdown = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

// Finds the ```ts blocks of one Markdown text, with the line each opens on; a block preceded by a no-check mark is left out.
function tsBlocks(file: string, text: string): { blocks: Block[]; skipped: number } {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let skipped = 0;
  for (let at = 0; at < lines.length; at += 1) {
    if (!/^```ts\s*$/.test(lines[at] ?? '')) continue;
    const close = lines.findIndex((line, index) => index > at && line.startsWith('```'));
    if (close < 0) throw new Error(`${file}:${at + 1}: a \`\`\`ts block is never closed`);
    if (/^<!-- no-check: .+ -->$/.test(lines[at - 1] ?? '')) skipped += 1;
    else blocks.push({ file, line: at + 1, source: lines.slice(at + 1, close).join('\n') });
    at = close;
  }
  return { blocks, skipped };
}

// The names a docs example may use without declaring them: the values the quick start builds.
const ambient = `import type { FileSystem, GoalInput, StageRunner } from 'goal-loop';
declare global {
  const fs: FileSystem;
  const runDir: string;
  const stages: string[];
  const runner: StageRunner;
  const goal: GoalInput;
}
export {};
`;

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
writeFileSync(join(out, 'ambient.d.ts'), ambient);
const paths = Object.fromEntries(
  ['', '/review', '/critics', '/fix-loop', '/node', '/testing'].map((sub) => [
    `goal-loop${sub}`,
    [`../../src/${sub === '' ? 'index' : sub.slice(1)}.ts`],
  ]),
);
const { compilerOptions } = JSON.parse(readFileSync('tsconfig.json', 'utf8')) as { compilerOptions: object };
const tsconfig = { compilerOptions: { ...compilerOptions, noUnusedLocals: false, paths }, include: ['*.ts'] };
writeFileSync(join(out, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);

let checked = 0;
let skipped = 0;
const origin = new Map<string, Block>();
for (const file of markdown) {
  const found = tsBlocks(file, readFileSync(file, 'utf8'));
  skipped += found.skipped;
  for (const block of found.blocks) {
    const name = `${basename(file, '.md')}-line-${block.line}.ts`;
    origin.set(name, block);
    // Every block is a module, so top-level await works and its names stay its own.
    writeFileSync(join(out, name), `${block.source}\nexport {};\n`);
    checked += 1;
  }
}

const tsc = spawnSync('npx', ['tsc', '--noEmit', '-p', join(out, 'tsconfig.json')], { encoding: 'utf8' });
const report = `${tsc.stdout}${tsc.stderr}`.replace(/^temp\/doc-blocks\/([^(]+)\((\d+),(\d+)\)/gm, (all, name, row) => {
  const block = origin.get(name);
  return block === undefined ? all : `${block.file}:${block.line + Number(row)} (${name})`;
});
if (tsc.status !== 0) {
  console.error(report);
  console.error(`doc blocks: type errors in the ${checked} TypeScript blocks of ${markdown.length} files`);
  process.exitCode = 1;
} else
  console.log(
    `doc blocks: ${checked} TypeScript blocks of ${markdown.length} files type-check (${skipped} marked no-check)`,
  );
