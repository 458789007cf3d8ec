// The differential run: generated run directories evaluated by rstack-agents' goal check and by goal-loop, every
// disagreement explained by a row of docs/interop-rstack.md or reported as unexplained.
// Usage: npx tsx scripts/differential/run.ts [--count 2000] [--seed 29] [--rstack <dir of goal-check.js>]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createRandom } from '../random.js';
import { type Decision, goalLoopDecision, loadRstack, rstackDecision, writeRun } from './evaluate.js';
import { generateRun } from './generate.js';
import { explain, RULES, sameDecision } from './rules.js';

/** The vendored copy of rstack-agents' goal check (scripts/differential/rstack). */
export const VENDORED_RSTACK = fileURLToPath(new URL('./rstack/', import.meta.url));

/** One disagreement no rule explains. */
export interface Unexplained {
  readonly index: number;
  readonly summary: string;
  readonly rstack: Decision;
  readonly goalLoop: Decision;
}

/** The figures of one differential run. */
export interface DifferentialReport {
  readonly count: number;
  readonly seed: number;
  readonly agreements: number;
  /** Disagreements explained, by rule id (rules that explained none are absent). */
  readonly explained: Readonly<Record<string, number>>;
  readonly unexplained: readonly Unexplained[];
}

/** Generates `count` run directories from `seed`, evaluates each both ways and classifies every disagreement. */
export async function runDifferential(options: {
  readonly count: number;
  readonly seed: number;
  readonly rstackDir?: string;
}): Promise<DifferentialReport> {
  const evaluate = await loadRstack(options.rstackDir ?? VENDORED_RSTACK);
  const random = createRandom(options.seed);
  const explained: Record<string, number> = {};
  const unexplained: Unexplained[] = [];
  let agreements = 0;
  const base = await mkdtemp(join(tmpdir(), 'goal-loop-differential-'));
  try {
    for (let index = 0; index < options.count; index += 1) {
      const spec = generateRun(random, index);
      const root = join(base, String(index));
      await writeRun(root, spec);
      const rstack = await rstackDecision(evaluate, root, spec);
      const goalLoop = await goalLoopDecision(root, spec);
      await rm(root, { recursive: true, force: true });
      if (sameDecision(rstack, goalLoop)) agreements += 1;
      else {
        const rule = explain(spec, rstack, goalLoop);
        if (rule === null) unexplained.push({ index, summary: spec.summary, rstack, goalLoop });
        else explained[rule.id] = (explained[rule.id] ?? 0) + 1;
      }
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  return { count: options.count, seed: options.seed, agreements, explained, unexplained };
}

const shown = (decision: Decision): string =>
  decision.rerun.length === 0 ? decision.status : `${decision.status} [${decision.rerun.join(', ')}]`;
const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(whole, 1)).toFixed(2)} %`;

/** The report as the script prints it. */
export function formatReport(report: DifferentialReport): string {
  const disagreements = report.count - report.agreements;
  const lines = [
    `differential: ${report.count} run directories, seed ${report.seed}`,
    `agreements: ${report.agreements} (${percent(report.agreements, report.count)})`,
    `disagreements: ${disagreements}`,
  ];
  for (const rule of RULES) {
    const count = report.explained[rule.id];
    if (count !== undefined)
      lines.push(`  ${rule.id.padEnd(4)} ${String(count).padStart(5)}  ${rule.table}: ${rule.row}`);
  }
  const missed = report.unexplained.length;
  lines.push(`unexplained: ${missed} (${percent(missed, report.count)} of all runs)`);
  for (const example of report.unexplained.slice(0, 10)) {
    lines.push(`  #${example.index}: ${example.summary}`);
    lines.push(`    rstack-agents ${shown(example.rstack)}; goal-loop ${shown(example.goalLoop)}`);
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '29' },
      rstack: { type: 'string' },
    },
  });
  const count = Number(values.count);
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed))
    throw new Error('--count must be a positive integer and --seed an integer');
  const started = performance.now();
  const report = await runDifferential({
    count,
    seed,
    ...(values.rstack === undefined ? {} : { rstackDir: values.rstack }),
  });
  console.log(formatReport(report));
  console.log(`took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
