// Type-checks every ```ts block of README.md and docs/*.md: each block becomes a module of temp/doc-blocks/ that
// imports the package by its name (tsconfig `paths` to src/), and `tsc --noEmit` checks them all at once.
// A block marked `<!-- no-check: why -->` on the line before it is skipped (see scripts/doc-blocks.ts). Usage: tsx scripts/check-doc-blocks.ts
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { blockModule, type DocBlock, pointToMarkdown, tsBlocks } from './doc-blocks.js';

const out = 'temp/doc-blocks';
const markdown = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

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
  ['', '/review', '/critics', '/fix-loop', '/node', '/testing', '/postgres', '/contracts'].map((sub) => [
    `goal-loop${sub}`,
    [`../../src/${sub === '' ? 'index' : sub.slice(1)}.ts`],
  ]),
);
const { compilerOptions } = JSON.parse(readFileSync('tsconfig.json', 'utf8')) as { compilerOptions: object };
const tsconfig = { compilerOptions: { ...compilerOptions, noUnusedLocals: false, paths }, include: ['*.ts'] };
writeFileSync(join(out, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);

let checked = 0;
let skipped = 0;
const origin = new Map<string, DocBlock>();
for (const file of markdown) {
  const found = tsBlocks(file, readFileSync(file, 'utf8'));
  skipped += found.skipped;
  for (const block of found.blocks) {
    const name = `${basename(file, '.md')}-line-${block.line}.ts`;
    origin.set(name, block);
    writeFileSync(join(out, name), blockModule(block));
    checked += 1;
  }
}

const tsc = spawnSync('npx', ['tsc', '--noEmit', '-p', join(out, 'tsconfig.json')], { encoding: 'utf8' });
const report = pointToMarkdown(`${tsc.stdout}${tsc.stderr}`, out, origin);
if (tsc.status !== 0) {
  console.error(report);
  console.error(`doc blocks: type errors in the ${checked} TypeScript blocks of ${markdown.length} files`);
  process.exitCode = 1;
} else
  console.log(
    `doc blocks: ${checked} TypeScript blocks of ${markdown.length} files type-check (${skipped} marked no-check)`,
  );
