// Contract bytes that are not UTF-8 on the real filesystem: the contract is MALFORMED naming the byte offset, never
// read with U+FFFD in place of the bytes (an id `FR-\xff…` would become `FR-ÿ��` or `FR-���` and pass).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { cleanRun } from './fixtures.js';

const RUN = 'runs/r1';
const NOW = '2025-01-31T12:00:00.000Z';
const CODE = 'artifacts/stages/07-code/code_report.json';
const BAD = Buffer.from([0xff, 0xfe, 0xc3]);

// Writes the clean run's contracts at their canonical paths.
async function writeClean(fs: FileSystem): Promise<void> {
  const run = cleanRun();
  for (const slot of REVIEW_CONTRACT_SLOTS)
    await fs.writeText(`${RUN}/${slot.canonicalPath}`, JSON.stringify(run[slot.key]));
}

// Puts the bad bytes inside the first string value of a file; returns their byte offset.
async function spoil(path: string): Promise<number> {
  const text = await readFile(path);
  const offset = text.indexOf('":"') + 3;
  await writeFile(path, Buffer.concat([text.subarray(0, offset), BAD, text.subarray(offset)]));
  return offset;
}

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-review-utf8-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('a contract that is not UTF-8', () => {
  it('is a CRITICAL MALFORMED finding naming the file and the byte offset of the first bad sequence', async () => {
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    const offset = await spoil(join(root, RUN, CODE));
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    const malformed = report.issues.filter((issue) => issue.rule === 'contract.malformed');
    expect(malformed).toHaveLength(1);
    expect(malformed[0]).toMatchObject({ severity: 'CRITICAL', source_agent: '07-code' });
    expect(malformed[0]?.description).toContain(
      `EILSEQ: the file is not valid UTF-8, at byte offset ${offset} (ff fe c3`,
    );
    expect(report.analysis_scope.contracts_malformed).toEqual([CODE]);
    expect(JSON.stringify(report)).not.toContain('\ufffd');
  });

  it('at goal.json is a goal issue naming the offset, and no criterion is evaluated', async () => {
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await writeFile(join(root, RUN, 'goal.json'), '{"schema_version":1,"goal_id":"g","criteria":[]}');
    const offset = await spoil(join(root, RUN, 'goal.json'));
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report.goal_evaluation).toMatchObject({ status: 'ASK_USER', criteria: [] });
    expect(JSON.stringify(report)).toContain(`byte offset ${offset}`);
  });
});
