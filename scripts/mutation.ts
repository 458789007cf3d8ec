// A small mutation runner over the pure cores (src/<capability>/core/** and src/review/analyses/**, the folders the
// dependency rules hold pure): it applies a seeded sample of simple mutations one at a time, runs the fast tests that
// mirror the mutated file's folder and import it, and reports the mutants no test killed.
// Usage: tsx scripts/mutation.ts [--count 60] [--seed 1] [--timeout-ms 120000] [--min-score 90] [--list]
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import { createRandom } from './random.js';

interface Mutant {
  readonly file: string;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
  readonly from: string;
  readonly to: string;
}

type Outcome = 'killed' | 'survived' | 'timeout' | 'skipped';

interface Skip {
  readonly file: string;
  /** The mutated line's text (trimmed) and the mutation's column: an entry outlives edits elsewhere in the file. */
  readonly code: string;
  readonly column: number;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

// Equivalent mutants: no input the library writes can tell them from the original.
const SKIPS: readonly Skip[] = [
  {
    file: 'src/goal/core/run-report-build.ts',
    code: "while (open >= 0 && !(stages[open]?.stage === event.stage && stages[open]?.status === 'interrupted')) open -= 1;",
    column: 65,
    from: '&&',
    to: '||',
    reason:
      "the loop logs a stage's stage_completed right after its own stage_started: the last entry matches both ways",
  },
];

const ROOT = process.cwd();
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');

const { values: flags } = parseArgs({
  options: {
    count: { type: 'string', default: '60' },
    seed: { type: 'string', default: '1' },
    'timeout-ms': { type: 'string', default: '120000' },
    'min-score': { type: 'string', default: '90' },
    list: { type: 'boolean', default: false },
  },
});

function numberFlag(name: 'count' | 'timeout-ms' | 'min-score'): number {
  const value = Number(flags[name]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number ≥ 0`);
  return value;
}

const count = numberFlag('count');
const seed = flags.seed;
const timeoutMs = numberFlag('timeout-ms');
const minScore = numberFlag('min-score');
const listOnly = flags.list;

// Every .ts file under `dir` (repository-relative, sorted so the pool is the same on every machine).
function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name).split('\\').join('/'))
    .sort();
}

// A file that compiles to no JavaScript holds only types: no mutation of it can run.
function onlyTypes(text: string): boolean {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, removeComments: true } });
  return js.outputText.replace(/export\s*\{\s*\};?/g, '').trim() === '';
}

function coreFiles(): string[] {
  const capabilities = readdirSync('src', { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const files = capabilities.flatMap((entry) => [
    ...tsFiles(`src/${entry.name}/core`),
    ...tsFiles(`src/${entry.name}/analyses`),
  ]);
  return files.filter((file) => !onlyTypes(readFileSync(file, 'utf8')));
}

const SWAPS: Readonly<Partial<Record<ts.SyntaxKind, string>>> = {
  [ts.SyntaxKind.LessThanToken]: '<=',
  [ts.SyntaxKind.LessThanEqualsToken]: '<',
  [ts.SyntaxKind.GreaterThanToken]: '>=',
  [ts.SyntaxKind.GreaterThanEqualsToken]: '>',
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: '!==',
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: '===',
  [ts.SyntaxKind.EqualsEqualsToken]: '!=',
  [ts.SyntaxKind.ExclamationEqualsToken]: '==',
  [ts.SyntaxKind.AmpersandAmpersandToken]: '||',
  [ts.SyntaxKind.BarBarToken]: '&&',
};

// The literal a returned literal becomes.
function otherLiteral(node: ts.Expression, text: string): string | undefined {
  if (ts.isNumericLiteral(node)) return text === '0' ? '1' : '0';
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text === '' ? "'mutant'" : "''";
  if (node.kind === ts.SyntaxKind.NullKeyword) return 'undefined';
  return undefined;
}

// The mutants of one file, walking its runtime code only (type annotations, interfaces and aliases are skipped).
function mutantsOf(file: string): Mutant[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Mutant[] = [];
  const add = (node: ts.Node, to: string): void => {
    const start = node.getStart(source);
    const { line, character } = source.getLineAndCharacterOfPosition(start);
    found.push({
      file,
      start,
      end: node.getEnd(),
      line: line + 1,
      column: character + 1,
      from: node.getText(source),
      to,
    });
  };
  const returned = (expression: ts.Expression | undefined): void => {
    if (expression === undefined) return;
    const to = otherLiteral(expression, expression.getText(source));
    if (to !== undefined) add(expression, to);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isBinaryExpression(node)) {
      const kind = node.operatorToken.kind;
      const swap = SWAPS[kind];
      if (swap !== undefined) add(node.operatorToken, swap);
      const one = ts.isNumericLiteral(node.right) && node.right.text === '1';
      if (one && kind === ts.SyntaxKind.PlusToken) add(node.operatorToken, '-');
      if (one && kind === ts.SyntaxKind.MinusToken) add(node.operatorToken, '+');
    }
    if (node.kind === ts.SyntaxKind.TrueKeyword) add(node, 'false');
    if (node.kind === ts.SyntaxKind.FalseKeyword) add(node, 'true');
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken)
      add(node, node.operand.getText(source));
    if (ts.isReturnStatement(node)) returned(node.expression);
    if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) returned(node.body);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sample(pool: readonly Mutant[], size: number, seedText: string): Mutant[] {
  // The seed text hashed to the PRNG's 32-bit seed: any text seeds a sample.
  const { next } = createRandom(createHash('sha256').update(seedText).digest().readUInt32LE(0));
  const shuffled = [...pool];
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other] as Mutant, shuffled[index] as Mutant];
  }
  return shuffled.slice(0, size).sort((a, b) => (a.file === b.file ? a.start - b.start : a.file < b.file ? -1 : 1));
}

// Who imports whom, among src/ and test/ (static and dynamic imports, the package's own name included).
function importers(): Map<string, Set<string>> {
  const byTarget = new Map<string, Set<string>>();
  for (const file of [...tsFiles('src'), ...tsFiles('test')]) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const target = resolveImport(file, fileName);
      if (target === undefined) continue;
      const set = byTarget.get(target) ?? new Set<string>();
      set.add(file);
      byTarget.set(target, set);
    }
  }
  return byTarget;
}

function resolveImport(from: string, specifier: string): string | undefined {
  const own = /^goal-loop(?:\/(.+))?$/.exec(specifier);
  if (own !== null) return `src/${own[1] ?? 'index'}.ts`;
  if (!specifier.startsWith('.')) return undefined;
  const path = relative(ROOT, resolve(dirname(from), specifier))
    .split('\\')
    .join('/');
  for (const candidate of [path.replace(/\.js$/, '.ts'), `${path}.ts`, `${path}/index.ts`])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

// The fast test files that import `file`, directly or not: first those in its mirror folder, then the rest of its
// capability's tests (only run when the first ones all pass).
function testsOf(file: string, graph: Map<string, Set<string>>): [string[], string[]] {
  const reached = new Set<string>([file]);
  const queue = [file];
  for (let next = queue.pop(); next !== undefined; next = queue.pop())
    for (const importer of graph.get(next) ?? [])
      if (!reached.has(importer)) {
        reached.add(importer);
        queue.push(importer);
      }
  const capability = file.split('/')[1];
  const mirror = `${dirname(file).replace(/^src\//, 'test/')}/`;
  const tests = [...reached]
    .filter((path) => path.startsWith(`test/${capability}/`) && path.endsWith('.test.ts'))
    .filter((path) => !path.endsWith('.integration.test.ts'))
    .sort();
  return [tests.filter((path) => path.startsWith(mirror)), tests.filter((path) => !path.startsWith(mirror))];
}

// Restoring: the original text of the file being mutated, kept on disk too so a killed run is undone by the next one.
const JOURNAL = join(
  tmpdir(),
  `goal-loop-mutation-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.json`,
);
let mutated: { readonly file: string; readonly original: string } | undefined;
let child: ChildProcess | undefined;

function restore(): void {
  if (mutated === undefined) return;
  writeFileSync(mutated.file, mutated.original);
  if (readFileSync(mutated.file, 'utf8') !== mutated.original) throw new Error(`could not restore ${mutated.file}`);
  mutated = undefined;
  rmSync(JOURNAL, { force: true });
}

function restoreJournal(): void {
  if (!existsSync(JOURNAL)) return;
  const left = JSON.parse(readFileSync(JOURNAL, 'utf8')) as { file: string; original: string };
  mutated = left;
  restore();
  console.log(`restored ${left.file}, left mutated by an interrupted run`);
}

function apply(mutant: Mutant): void {
  const original = readFileSync(mutant.file, 'utf8');
  writeFileSync(JOURNAL, JSON.stringify({ file: mutant.file, original }));
  mutated = { file: mutant.file, original };
  writeFileSync(mutant.file, `${original.slice(0, mutant.start)}${mutant.to}${original.slice(mutant.end)}`);
}

function stopChild(): void {
  if (child?.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    stopChild();
    restore();
    console.log(`\n${signal}: stopped; every file is restored`);
    process.exit(130);
  });
process.on('exit', () => {
  stopChild();
  restore();
});

// Runs vitest on `files` (fast project, stopping at the first failure): passed, failed, or timed out.
function runTests(files: readonly string[], limitMs: number): Promise<'passed' | 'failed' | 'timeout'> {
  return new Promise((done) => {
    const args = [VITEST, 'run', '--project', 'fast', '--bail=1', '--reporter=dot', ...files];
    // Its own process group, so a timeout or an interrupt stops every worker it started.
    const running = spawn(process.execPath, args, { stdio: 'ignore', detached: true });
    child = running;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopChild();
    }, limitMs);
    running.on('exit', (code) => {
      clearTimeout(timer);
      child = undefined;
      done(timedOut ? 'timeout' : code === 0 ? 'passed' : 'failed');
    });
  });
}

function skipOf(mutant: Mutant): Skip | undefined {
  const text = readFileSync(mutant.file, 'utf8');
  const lineText = text.split('\n')[mutant.line - 1]?.trim() ?? '';
  return SKIPS.find(
    (skip) =>
      skip.file === mutant.file &&
      skip.column === mutant.column &&
      skip.from === mutant.from &&
      skip.to === mutant.to &&
      skip.code === lineText,
  );
}

const describe = (mutant: Mutant): string =>
  `${mutant.file}:${mutant.line}:${mutant.column}  \`${mutant.from.replace(/\s+/g, ' ')}\` → \`${mutant.to.replace(/\s+/g, ' ')}\``;

async function main(): Promise<void> {
  const began = Date.now();
  restoreJournal();
  const files = coreFiles();
  const pool = files.flatMap(mutantsOf);
  const picked = sample(pool, count, seed);
  console.log(`${picked.length} mutants (seed ${seed}) of ${pool.length} in ${files.length} files`);
  if (listOnly) {
    for (const mutant of picked) {
      const skip = skipOf(mutant);
      console.log(`  ${describe(mutant)}${skip === undefined ? '' : `  (skipped: ${skip.reason})`}`);
    }
    return;
  }
  const graph = importers();
  const plans = picked.map((mutant) => ({ mutant, skip: skipOf(mutant), tests: testsOf(mutant.file, graph) }));
  // The unmutated tests must pass, or every mutant would read as killed.
  const baseline = [...new Set(plans.flatMap((plan) => (plan.skip === undefined ? plan.tests.flat() : [])))].sort();
  if ((await runTests(baseline, timeoutMs * 4)) !== 'passed') {
    console.error('the tests fail (or time out) on the unmutated sources: fix them first');
    process.exitCode = 2;
    return;
  }
  const results: { mutant: Mutant; outcome: Outcome; note: string }[] = [];
  for (const [index, { mutant, skip, tests }] of plans.entries()) {
    let outcome: Outcome = 'survived';
    let note = '';
    if (skip !== undefined) {
      outcome = 'skipped';
      note = skip.reason;
    } else if (tests.flat().length === 0) {
      note = 'no test imports it';
    } else {
      apply(mutant);
      try {
        for (const phase of tests) {
          if (phase.length === 0) continue;
          const run = await runTests(phase, timeoutMs);
          if (run === 'passed') continue;
          outcome = run === 'failed' ? 'killed' : 'timeout';
          break;
        }
      } finally {
        restore();
      }
    }
    results.push({ mutant, outcome, note });
    console.log(`[${index + 1}/${plans.length}] ${outcome.padEnd(8)} ${describe(mutant)}${note ? `  (${note})` : ''}`);
  }
  const tally = (outcome: Outcome) => results.filter((result) => result.outcome === outcome).length;
  const scored = results.length - tally('skipped');
  const detected = tally('killed') + tally('timeout');
  const score = scored === 0 ? 100 : (100 * detected) / scored;
  console.log(
    `\nkilled ${tally('killed')} · survived ${tally('survived')} · timeout ${tally('timeout')} · skipped ${tally('skipped')}`,
  );
  console.log(
    `score ${detected}/${scored} = ${score.toFixed(1)} % (killed and timed out over the mutants not skipped)`,
  );
  const survivors = results.filter((result) => result.outcome === 'survived');
  if (survivors.length > 0) console.log('survivors:');
  for (const { mutant, note } of survivors) console.log(`  ${describe(mutant)}${note ? `  (${note})` : ''}`);
  console.log(`time ${Math.round((Date.now() - began) / 1000)} s`);
  if (score < minScore) process.exitCode = 1;
}

main().catch((error: unknown) => {
  restore();
  console.error(error);
  process.exitCode = 2;
});
