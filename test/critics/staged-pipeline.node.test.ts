import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { traceRecordSchema } from '../../src/critics/contracts/trace.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { type HostCall, seedStages } from './helpers.js';

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'critics-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('StagedPipeline on the Node filesystem', () => {
  it('persists the state and a trace of one JSON line per record, and answers a finished execution from disk', async () => {
    const calls: HostCall[] = [];
    const fs = createNodeFileSystem(root);
    const result = await new StagedPipeline({ fs, dir: '.goal-loop/critics', stages: seedStages(calls) }).run({
      executionId: 'feat-1',
      spec: { feature: 'search' },
    });
    expect(result).toMatchObject({ status: 'completed', backtracks: 1 });
    const dir = join(root, '.goal-loop/critics/feat-1');
    const lines = (await readFile(join(dir, 'trace.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => traceRecordSchema.parse(JSON.parse(line)))).toEqual(result.trace);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { status: string; outbox: unknown[] };
    expect(state).toMatchObject({ status: 'completed' });

    // A torn last line (a crash mid-append) is not a record: the result reads the committed trace.
    await appendFile(join(dir, 'trace.jsonl'), '{"seq":99,"kind":"gen');
    const again = await new StagedPipeline({ fs, dir: '.goal-loop/critics', stages: seedStages(calls) }).run({
      executionId: 'feat-1',
      spec: { feature: 'search' },
    });
    expect(again).toEqual(result);
    expect(calls).toHaveLength(13);
  });
});
