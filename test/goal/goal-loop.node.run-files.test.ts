import { mkdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { RUN } from './helpers.js';
import { base, loop, root, useNodeProject } from './node-project.js';

// The run dir's files on the real filesystem: temp files a crash left behind, and files behind symlinks.

useNodeProject();

describe('temp files of atomic writes cut off by a crash', () => {
  it('are removed when a session starts; a fresh one (a live writer) is left', async () => {
    const stale = join(root, RUN, '.loop-state.json.4242.0b6e4d0a-1f2c-4c3b-9a8d-7e6f5a4b3c2d.tmp');
    const fresh = join(root, RUN, '.metrics.json.4243.1c7f5e1b-2a3d-4d4c-8b9e-8f7a6b5c4d3e.tmp');
    await writeFile(stale, '{"half":');
    await writeFile(fresh, '{"half":');
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(stale, old, old);
    await loop(
      createScriptedStageRunner({ a: { status: 'passed' }, b: { status: 'passed' }, c: { status: 'passed' } }),
    ).run();
    await expect(stat(stale)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(fresh)).isFile()).toBe(true);
  });

  it('are removed from the latest iteration folder, where an evaluation write was cut off; earlier ones are left', async () => {
    const name = (pid: number) => `.evaluation.json.${pid}.0b6e4d0a-1f2c-4c3b-9a8d-7e6f5a4b3c2d.tmp`;
    const old = new Date(Date.now() - 10 * 60_000);
    const temps = [join(root, RUN, 'iterations', '2', name(1)), join(root, RUN, 'iterations', '10', name(2))];
    for (const temp of temps) {
      await mkdir(dirname(temp), { recursive: true });
      await writeFile(temp, '{"half":');
      await utimes(temp, old, old);
    }
    await loop(
      createScriptedStageRunner({ a: { status: 'passed' }, b: { status: 'passed' }, c: { status: 'passed' } }),
    ).run();
    expect((await stat(temps[0] ?? '')).isFile()).toBe(true);
    await expect(stat(temps[1] ?? '')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('run-directory files behind symlinks', () => {
  const allPassed = () =>
    createScriptedStageRunner({ a: { status: 'passed' }, b: { status: 'passed' }, c: { status: 'passed' } });

  it('a symlink out of the project is refused, never read from or written through', async () => {
    const outside = join(base, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'metrics.json'), JSON.stringify({ cumulative_cost_usd: 99 }));
    await symlink(join(outside, 'metrics.json'), join(root, RUN, 'metrics.json'));
    await expect(loop(allPassed(), { budgetUsd: 10 }).run()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringContaining('metrics.json'),
    });
    await expect(loop(allPassed()).evaluate()).rejects.toMatchObject({ code: 'IO_ERROR' });
    expect(await readFile(join(outside, 'metrics.json'), 'utf8')).toBe(JSON.stringify({ cumulative_cost_usd: 99 }));
  });

  it('an events.jsonl symlinked inside the project is appended to as the file it is, never cut', async () => {
    expect((await loop(allPassed()).run()).stoppedOn).toBe('complete');
    const shared = join(root, 'shared-events.jsonl');
    await rename(join(root, RUN, 'events.jsonl'), shared);
    await symlink('../../../shared-events.jsonl', join(root, RUN, 'events.jsonl'));
    const before = (await readFile(shared, 'utf8')).split('\n').filter(Boolean);
    await writeFile(join(root, RUN, 'loop-state.json'), '');
    await rm(join(root, RUN, 'loop-state.json'));
    expect((await loop(allPassed()).run()).stoppedOn).toBe('complete');
    const after = (await readFile(shared, 'utf8')).split('\n').filter(Boolean);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.map((line) => (JSON.parse(line) as { seq: number }).seq)).toEqual(after.map((_, i) => i));
  });
});
