import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Generator } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { tick } from './hanging-host.js';
import { critic, DIR, generator, type HostCall, spec } from './helpers.js';

// Late costs of an execution on the real filesystem: written by the process that watched the cut-off call, counted
// by the next run under the lock, once, even when that run crashes between counting and removing the file.

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'critics-late-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const pendingDir = () => join(root, DIR, 'x', 'spend-pending');
const pendingNames = async () => (await readdir(pendingDir()).catch(() => [])).filter((name) => name.endsWith('.json'));

// Runs an execution whose first plan generator call is aborted and then reports `costUsd`; resolves once its late
// cost file is on disk.
async function abortedCallReporting(fs: FileSystem, costUsd: number): Promise<void> {
  let release: (value: { output: string; costUsd: number }) => void = () => {};
  let reached: () => void = () => {};
  const called = new Promise<void>((resolve) => (reached = resolve));
  const held: Generator = () => {
    reached();
    return new Promise((resolve) => (release = resolve));
  };
  const controller = new AbortController();
  const stages = [{ id: 'plan', generate: held }];
  const run = new StagedPipeline({ fs, dir: DIR, stages, signal: controller.signal }).run({ executionId: 'x', spec });
  await called;
  controller.abort(new Error('host stopping'));
  await expect(run).rejects.toThrow('host stopping');
  release({ output: 'plan', costUsd });
  for (let turn = 0; turn < 200 && (await pendingNames()).length === 0; turn++) await tick();
}

// The pipeline that resumes the execution: every call answers (plan 0.5 + its critic 0.25).
const resumed = (fs: FileSystem, calls: HostCall[] = []) =>
  new StagedPipeline({
    fs,
    dir: DIR,
    stages: [{ id: 'plan', generate: generator(calls), critic: critic(calls, () => ({ decision: 'accept' })) }],
  });

describe('StagedPipeline late costs on the Node filesystem', () => {
  it('the aborted call’s cost is on disk, then counted by the resumed run and removed', async () => {
    const fs = createNodeFileSystem(root);
    await abortedCallReporting(fs, 1.25);
    const [name] = await pendingNames();
    expect(JSON.parse(await readFile(join(pendingDir(), name ?? ''), 'utf8'))).toMatchObject({
      stage: 'plan',
      attempt: 1,
      call: 'generate',
      cost_usd: 1.25,
    });
    const result = await resumed(fs).run({ executionId: 'x', spec });
    expect(result).toMatchObject({ status: 'completed', spentUsd: 2 });
    expect(await pendingNames()).toEqual([]);
    const trace = (await readFile(join(root, DIR, 'x', 'trace.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(JSON.parse(trace[0] ?? '')).toMatchObject({ kind: 'late_cost', costUsd: 1.25 });
    const state = JSON.parse(await readFile(join(root, DIR, 'x', 'state.json'), 'utf8')) as Record<string, unknown>;
    expect(state.late_costs).toBeUndefined();
  });

  it('a stale temp file of a write a crash cut short is swept from spend-pending when a run starts', async () => {
    await mkdir(pendingDir(), { recursive: true });
    const temp = join(
      pendingDir(),
      `.plan-1-generate-u.json.4242.${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.tmp`,
    );
    await writeFile(temp, '{"execution_id":"x"');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(temp, hourAgo, hourAgo);
    await resumed(createNodeFileSystem(root)).run({ executionId: 'x', spec });
    expect(await readdir(pendingDir())).toEqual([]);
  });

  it('a spend-pending that leads out of the project is refused before anything there is swept', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'critics-outside-'));
    try {
      const temp = join(outside, `.data.json.1234.${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.tmp`);
      await writeFile(temp, 'not ours');
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(temp, hourAgo, hourAgo);
      await mkdir(join(root, DIR, 'x'), { recursive: true });
      await symlink(outside, pendingDir());
      await expect(resumed(createNodeFileSystem(root)).run({ executionId: 'x', spec })).rejects.toMatchObject({
        code: 'IO_ERROR',
      });
      expect(await readdir(outside)).toHaveLength(1);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('a run that crashes after counting, before removing, leaves it counted once', async () => {
    const node = createNodeFileSystem(root);
    await abortedCallReporting(node, 1.25);
    const crashing: FileSystem = {
      ...node,
      remove: (path) =>
        path.includes('spend-pending') ? Promise.reject(new Error('crash before the removal')) : node.remove(path),
    };
    const calls: HostCall[] = [];
    await expect(resumed(crashing, calls).run({ executionId: 'x', spec })).rejects.toThrow('crash before the removal');
    expect(calls).toEqual([]);
    expect(await pendingNames()).toHaveLength(1);
    const result = await resumed(node, calls).run({ executionId: 'x', spec });
    expect(result).toMatchObject({ status: 'completed', spentUsd: 2 });
    expect(result.trace.filter((record) => record.kind === 'late_cost')).toHaveLength(1);
    expect(await pendingNames()).toEqual([]);
  });
});
