// A small mutation runner over the pure cores (src/<capability>/core/** and src/review/analyses/**, the folders the
// dependency rules hold pure): it applies a seeded sample of simple mutations one at a time, runs the fast tests that
// mirror the mutated file's folder and import it, and reports the mutants no test killed.
// Usage: tsx scripts/mutation/run.ts [--count 60] [--seed 1] [--timeout-ms 120000] [--min-score 90] [--list]
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { coreFiles, describe, type Mutant, mutantsOf, sample, skipOf } from './mutants.js';
import { importers, testsOf } from './test-files.js';

type Outcome = 'killed' | 'survived' | 'timeout' | 'skipped';

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
