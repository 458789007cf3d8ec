import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { feedbackReportSchema } from '../../src/review/contracts/feedback-report.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { cleanRun } from './fixtures.js';
import { NOW, OUTPUTS, RUN, writeRun } from './run-files.js';

describe('runConsistencyReview on the real filesystem', () => {
  let root = '';
  afterEach(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  it('writes every output file atomically under the run directory', async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-review-'));
    const fs = createNodeFileSystem(root);
    const run = cleanRun();
    run.code_report.contract_version = '1.0';
    await writeRun(fs, run);
    await fs.writeText(`${RUN}/artifacts/stages/08-testing/test_report.json`, '{"test_cases": [');
    const result = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    for (const path of OUTPUTS) expect((await readFile(join(root, path), 'utf8')).length).toBeGreaterThan(0);
    const feedback = JSON.parse(await readFile(join(root, OUTPUTS[5] ?? ''), 'utf8')) as unknown;
    expect(feedbackReportSchema.safeParse(feedback).success).toBe(true);
    expect(result.report.issues.map((issue) => issue.rule)).toEqual([
      'contract.malformed',
      'versions.version_mismatch',
    ]);
    expect(result.report.analysis_scope.contracts_malformed).toEqual(['artifacts/stages/08-testing/test_report.json']);
    expect(await readFile(join(root, OUTPUTS[4] ?? ''), 'utf8')).toContain('## Critical issues');
  });
});

describe('runConsistencyReview write order', () => {
  it('writes the canonical feedback.json last, after every other output has landed', async () => {
    const memory = createMemoryFileSystem();
    await writeRun(memory, cleanRun());
    const landed: string[] = [];
    const fs: FileSystem = {
      ...memory,
      root: memory.root,
      writeText: async (path, text) => {
        await memory.writeText(path, text);
        landed.push(path);
      },
    };
    const { written } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(landed.at(-1)).toBe(`${RUN}/artifacts/stages/11-feedback-loop/feedback.json`);
    expect([...landed].sort()).toEqual([...written].sort());
  });
});
