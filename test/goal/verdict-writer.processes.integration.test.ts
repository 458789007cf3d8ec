import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseVerdictFile } from '../../src/goal/contracts/verdict.js';
import { goalJson, judge, PATHS, RUN } from './helpers.js';

// Four processes write ten verdicts each into one goal-verdict.json at once, on the real filesystem: all forty land.

const source = (file: string) => pathToFileURL(resolve('src', file)).href;
const CHILD = `
import { writeVerdict } from '${source('goal/verdict-writer.ts')}';
import { createNodeFileSystem } from '${source('node.ts')}';
const [root, worker] = process.argv.slice(2);
const fs = createNodeFileSystem(root);
await Promise.all(Array.from({ length: 10 }, (_, index) =>
  writeVerdict({ fs, runDir: '${RUN}', criterionId: 'p' + worker + '-' + index, verdict: 'PASS' })));
`;
const IDS = Array.from({ length: 4 }, (_, worker) =>
  Array.from({ length: 10 }, (_, index) => `p${worker}-${index}`),
).flat();

describe('writeVerdict from several processes', () => {
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-verdict-procs-'));
    await mkdir(join(root, RUN), { recursive: true });
    await writeFile(join(root, PATHS.goal), goalJson(IDS.map((id) => judge(id))));
    await writeFile(join(root, 'child.mts'), CHILD);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('4 processes × 10 concurrent calls: every verdict lands', async () => {
    const runs = Array.from({ length: 4 }, (_, worker) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'child.mts'), root, String(worker)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
      });
      return new Promise<{ code: number | null; errors: string }>((done) =>
        child.on('close', (code) => done({ code, errors })),
      );
    });
    for (const { code, errors } of await Promise.all(runs)) expect(code, errors).toBe(0);
    const file = parseVerdictFile(JSON.parse(await readFile(join(root, PATHS.verdicts), 'utf8')));
    expect(file.verdicts.map((verdict) => verdict.criterion_id).sort()).toEqual([...IDS].sort());
  }, 120_000);
});
