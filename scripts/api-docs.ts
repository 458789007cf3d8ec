// Prepares api-extractor's doc models for api-documenter, and compares a generated reference with docs/api/.
// `models`: temp/api-model/*.api.json → temp/api-doc-model/, each subpath renamed `@goal-loop/<entry>`, since
// api-documenter reads one package per model and every entry point of this package is named `goal-loop`.
// `finish <dir>`: turns those names back into import paths (`goal-loop/review`) in the generated Markdown.
// `compare <generated> <committed>`: exit 1, naming each file, when the two folders differ.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ENTRIES = ['review', 'critics', 'fix-loop', 'node', 'testing', 'postgres', 'contracts'] as const;

// What each entry point holds, for the reference's index (the bundled declarations keep no file comment to take it from).
const SUMMARY: Record<(typeof ENTRIES)[number] | '', string> = {
  '': 'The goal loop: `GoalLoop`, its options and results, goal files, verdicts, tools for hosts, and the shared types: errors, ports.',
  review: 'The consistency review: `reviewPipeline`, `runConsistencyReview`, `createReviewStageRunner`.',
  critics: 'Staged critics: `StagedPipeline`, critic metrics, calibration, `createCriticsStageRunner`.',
  'fix-loop': 'The fix-loop orchestrator: `FixLoopOrchestrator`, the git patch applier, escalation reports, tools.',
  node: 'The adapters that touch Node: `createNodeFileSystem`, `createExecaCommandRunner`.',
  testing: 'In-memory doubles for every port, and the filesystem conformance suite.',
  postgres: 'Run directories in PostgreSQL (a pg Pool or PGlite), for workers on several machines.',
  contracts:
    'The zod schemas of the on-disk and tool contracts, their types and the decision tables, for hosts that validate on the wire.',
};

// The package name api-documenter is given for an entry point.
function packageName(entry: string): string {
  return entry === '' ? 'goal-loop' : `@goal-loop/${entry}`;
}

// Copies each model, renamed, after checking it is not older than the declarations it was extracted from.
function models(): void {
  const from = 'temp/api-model';
  const to = 'temp/api-doc-model';
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const entry of ['', ...ENTRIES]) {
    const model = join(from, entry === '' ? 'goal-loop.api.json' : `goal-loop-${entry}.api.json`);
    const declarations = join('dist', entry === '' ? 'index.d.ts' : `${entry}.d.ts`);
    if (!existsSync(model) || statSync(model).mtimeMs < statSync(declarations).mtimeMs)
      throw new Error(
        `${model} is missing or older than ${declarations}: run \`npm run api:check\` (after the build) first`,
      );
    const json = JSON.parse(readFileSync(model, 'utf8').replaceAll('"goal-loop!', `"${packageName(entry)}!`)) as {
      name: string;
      docComment: string;
    };
    json.name = packageName(entry);
    json.docComment = `/**\n * ${SUMMARY[entry as keyof typeof SUMMARY]}\n *\n * @packageDocumentation\n */\n`;
    writeFileSync(join(to, `goal-loop-${entry || 'index'}.api.json`), JSON.stringify(json));
  }
}

// Writes the import path where api-documenter wrote the renamed package, and LF line ends where it wrote CRLF.
function finish(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const text = readFileSync(path, 'utf8');
    let fixed = text.replaceAll('\r\n', '\n').replaceAll('@goal-loop/', 'goal-loop/');
    for (const entry of ENTRIES)
      fixed = fixed.replace(new RegExp(`^## ${entry} package$`, 'm'), `## goal-loop/${entry} entry`);
    if (fixed !== text) writeFileSync(path, fixed);
  }
}

// Lists every file that is missing, extra or different between the two folders.
function compare(generated: string, committed: string): void {
  const names = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
  const fresh = names(generated);
  const kept = names(committed);
  const stale = [
    ...fresh.filter((name) => !kept.includes(name)).map((name) => `missing: ${committed}/${name}`),
    ...kept.filter((name) => !fresh.includes(name)).map((name) => `no longer generated: ${committed}/${name}`),
    ...fresh
      .filter((name) => kept.includes(name))
      .filter((name) => readFileSync(join(generated, name), 'utf8') !== readFileSync(join(committed, name), 'utf8'))
      .map((name) => `out of date: ${committed}/${name}`),
  ];
  if (stale.length === 0) {
    console.log(`${committed}: ${kept.length} pages, up to date with the TSDoc`);
    return;
  }
  console.error([...stale, `${committed} is stale: run \`npm run docs:api\` and commit the result`].join('\n'));
  process.exitCode = 1;
}

const [command, first, second] = process.argv.slice(2);
if (command === 'models') models();
else if (command === 'finish' && first !== undefined) finish(first);
else if (command === 'compare' && first !== undefined && second !== undefined) compare(first, second);
else throw new Error('usage: tsx scripts/api-docs.ts models | finish <dir> | compare <generated> <committed>');
