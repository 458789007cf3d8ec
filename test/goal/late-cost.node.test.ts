import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, passed, RUN, readEvents, STAGES, START } from './helpers.js';
import { abortedWithLateCost, type LateHarness, lateFiles } from './late-cost-helpers.js';

// The late cost scenario on the real filesystem: the pending file is written atomically (temp file + rename), a temp
// file is never read as a record, and a stale one is swept at the next session's start.

let root: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-late-cost-'));
  outside = await mkdtemp(join(tmpdir(), 'goal-loop-late-cost-outside-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function nodeHarness(): LateHarness {
  const fs = createNodeFileSystem(root);
  const clock = createManualClock(START);
  return {
    fs,
    clock,
    loop: (runner, options = {}) => new GoalLoop({ fs, runDir: RUN, stages: [...STAGES], runner, clock, ...options }),
  };
}

describe('late costs on the real filesystem', () => {
  it('the pending file is folded once on resume; temp files are not records, and a stale one is swept', async () => {
    const { h, runner } = await abortedWithLateCost(nodeHarness());
    const folder = join(root, RUN, 'spend-pending');
    const [name] = await lateFiles(h.fs);
    // A write cut off mid-way, an hour old, beside the record: not a record, and removed at the session start.
    const stale = join(folder, `.${name}.4242.01234567-89ab-cdef-0123-456789abcdef.tmp`);
    await writeFile(stale, '{"stage": "a", "cost_us');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(stale, hourAgo, hourAgo);

    const resumed = await h.loop(runner).run();
    expectStop(resumed, 'complete', 0);
    expect(resumed.spentUsd).toBe(4);
    const events = await readEvents(h.fs);
    expect(events.filter((event) => event.type === 'late_cost_recorded')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'late_cost_unreadable')).toEqual([]);
    expect(await readdir(folder)).toEqual([]);
  });

  it('never reads a pending file that leads out of the project: no spend counted, nothing of it quoted', async () => {
    const h = nodeHarness();
    const folder = join(root, RUN, 'spend-pending');
    await mkdir(folder, { recursive: true });
    const record = join(outside, 'record.json');
    await writeFile(record, JSON.stringify({ stage: 'a', iteration: 0, cost_usd: 42, settled_at: 'x' }));
    const secret = join(outside, 'secret.txt');
    await writeFile(secret, 'root:x:0:0 not json\n');
    await symlink(record, join(folder, '0-a-out.json'));
    await symlink(secret, join(folder, 'leak.json'));

    expect((await readLoopStatus({ fs: h.fs, runDir: RUN })).pendingLateCostUsd).toBe(0);
    const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    const result = await h.loop(runner, { budgetUsd: 10 }).run();
    expectStop(result, 'complete', 0);
    expect(result.spentUsd).toBe(0);
    const events = await readEvents(h.fs);
    expect(events.filter((event) => event.type === 'late_cost_recorded')).toEqual([]);
    const unreadable = events.filter((event) => event.type === 'late_cost_unreadable');
    expect(unreadable).toHaveLength(2);
    for (const event of unreadable) expect(JSON.stringify(event)).toContain('refused, not read');
    const log = await readFile(join(root, RUN, 'events.jsonl'), 'utf8');
    expect(log).not.toContain('root:x');
    expect(await readFile(record, 'utf8')).toContain('"cost_usd":42');
  });
});
