// Child process of the review benchmark's bounded-memory row: writes a programme of N requirements and no stories
// (one CRITICAL finding per requirement), runs the review on the Node filesystem, and prints one JSON line with
// the review's wall time, the peak RSS of the process and the size of feedback.json. argv: <root> <requirements>.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeFileSystem } from '../src/node/file-system.js';
import { REVIEW_OUTPUT_PATHS } from '../src/review/core/contract-slots.js';
import { runConsistencyReview } from '../src/review/run-review.js';

/** What the child prints. */
export interface MillionResult {
  readonly requirements: number;
  readonly ms: number;
  readonly peakRssBytes: number;
  readonly feedbackBytes: number;
  readonly issues: number;
  readonly criticalCount: number;
}

const RUN = 'runs/million';
const META = { contract_version: '1.1', produced_by: 'bench', timestamp: '2025-01-31T10:00:00Z' };
const [root = '.', count = '1000000'] = process.argv.slice(2);
const requirements = Number(count);

// requirement_spec.json with `requirements` functional requirements, written in pieces (no one huge string).
function writeSpec(): void {
  const dir = join(root, RUN, 'artifacts/stages/02-requirements');
  mkdirSync(dir, { recursive: true });
  const parts = ['{"contract_version":"1.1","produced_by":"bench","timestamp":"2025-01-31T10:00:00Z","requirements":['];
  for (let index = 0; index < requirements; index++) {
    const id = `FR-${String(index + 1).padStart(7, '0')}`;
    parts.push(`${index === 0 ? '' : ','}{"id":"${id}","type":"functional","title":"Requirement ${index + 1}"}`);
  }
  parts.push(']}');
  writeFileSync(join(dir, 'requirement_spec.json'), parts.join(''));
  const empty: Readonly<Record<string, object>> = {
    '05-jira/jira_tickets.json': { epics: [] },
    '07-code/code_report.json': { files: [] },
    '08-testing/test_report.json': { test_cases: [] },
  };
  for (const [path, body] of Object.entries(empty)) {
    mkdirSync(join(root, RUN, 'artifacts/stages', path, '..'), { recursive: true });
    writeFileSync(join(root, RUN, 'artifacts/stages', path), JSON.stringify({ ...META, ...body }));
  }
}

writeSpec();
const fs = createNodeFileSystem(root);
const start = performance.now();
const { report } = await runConsistencyReview({ fs, runDir: RUN, now: '2025-01-31T12:00:00.000Z' });
const ms = performance.now() - start;
const result: MillionResult = {
  requirements,
  ms,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
  feedbackBytes: statSync(join(root, RUN, REVIEW_OUTPUT_PATHS.feedback)).size,
  issues: report.issues.length,
  criticalCount: report.summary.critical_count,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
