import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GoalLoopError } from '../../src/errors.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createJsonStore } from '../../src/runtime/json-store.js';
import { JsonlLog } from '../../src/runtime/jsonl-log.js';
import { OutboxCommit } from '../../src/runtime/outbox.js';
import { FILE_SYSTEMS, failing, jsonLines, type TestFs } from './helpers.js';

const STATE = 'run/state.json';
const LOG = 'run/events.jsonl';
const recordSchema = z.object({ seq: z.int().min(0), type: z.string() });
const stateSchema = z.object({ step: z.int(), next_seq: z.int(), outbox: z.array(recordSchema) });
type State = z.output<typeof stateSchema>;

// The state after `step` changes of a toy machine, each change logging `per` records.
const stateAt = (step: number, per = 2): State => ({
  step,
  next_seq: step * per,
  outbox: Array.from({ length: per }, (_, i) => ({ seq: (step - 1) * per + i, type: `s${step}.${i}` })),
});
const commitOn = (fs: FileSystem, guard?: () => Promise<void>) =>
  new OutboxCommit(createJsonStore(fs, STATE, stateSchema), new JsonlLog(fs, LOG), guard);
const seqs = async (fs: FileSystem) => (await jsonLines(fs, LOG)).map((r) => (r as { seq: number }).seq);

describe.each(FILE_SYSTEMS)('OutboxCommit on the $name filesystem', ({ make }) => {
  let t: TestFs;
  let fs: FileSystem;
  beforeEach(async () => {
    t = await make();
    fs = t.fs;
  });
  afterEach(() => t.dispose());

  it('commits the state, then appends its records; the records are in the log in order', async () => {
    const commit = commitOn(fs);
    await commit.commit(stateAt(1));
    await commit.commit(stateAt(2));
    expect(await commit.store.load()).toEqual(stateAt(2));
    expect(await seqs(fs)).toEqual([0, 1, 2, 3]);
  });

  it('a crash between the state write and the appends: the next holder delivers each record exactly once', async () => {
    await commitOn(fs).commit(stateAt(1));
    const crashing = commitOn(failing(fs, (method) => method === 'appendText'));
    await expect(crashing.commit(stateAt(2))).rejects.toThrow('crash at appendText');
    expect(await seqs(fs)).toEqual([0, 1]);
    // A new process: it loads the saved state and delivers its outbox, twice (a second crash-and-resume).
    const next = commitOn(fs);
    const saved = (await next.store.load()) as State;
    expect(await next.deliver(saved)).toBe(2);
    expect(await commitOn(fs).deliver(saved)).toBe(0);
    expect(await seqs(fs)).toEqual([0, 1, 2, 3]);
  });

  it('a crash mid-delivery, even one leaving a torn line: redelivery appends the rest once, every line parses', async () => {
    let appends = 0;
    const crashing = commitOn(failing(fs, (method) => method === 'appendText' && ++appends === 2));
    await expect(crashing.commit(stateAt(1, 3))).rejects.toThrow();
    await fs.appendText(LOG, '{"seq":1,"type":"s1');
    const saved = (await commitOn(fs).store.load()) as State;
    expect(await commitOn(fs).deliver(saved)).toBe(2);
    expect(await jsonLines(fs, LOG)).toEqual(stateAt(1, 3).outbox);
  });

  it('the guard runs once per commit, before its first write: a guard that refuses (a lost lock) leaves state and log untouched', async () => {
    const calls: string[] = [];
    const spy = failing(fs, (method, args) => {
      if (method === 'writeText' || method === 'appendText') calls.push(`${method} ${String(args[0])}`);
      return false;
    });
    let allowed = true;
    const commit = commitOn(spy, async () => {
      calls.push('guard');
      if (!allowed) throw Object.assign(new Error('lost'), { code: 'RUN_LOCKED' });
    });
    await commit.commit(stateAt(1));
    expect(calls).toEqual(['guard', `writeText ${STATE}`, `appendText ${LOG}`, `appendText ${LOG}`]);
    allowed = false;
    const before = [await fs.readText(STATE), await fs.readText(LOG)];
    await expect(commit.commit(stateAt(2))).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await expect(commit.deliver(stateAt(2))).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect([await fs.readText(STATE), await fs.readText(LOG)]).toEqual(before);
  });

  it('save is the commit point: it writes the state behind the guard and leaves its records for deliver', async () => {
    let allowed = true;
    const commit = commitOn(fs, async () => {
      if (!allowed) throw Object.assign(new Error('lost'), { code: 'RUN_LOCKED' });
    });
    await commit.save(stateAt(1));
    expect(await commit.store.load()).toEqual(stateAt(1));
    expect(await seqs(fs)).toEqual([]);
    expect(await commit.deliver(stateAt(1))).toBe(2);
    allowed = false;
    await expect(commit.save(stateAt(2))).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(await commit.store.load()).toEqual(stateAt(1));
    expect(await seqs(fs)).toEqual([0, 1]);
  });

  it('a state whose outbox is behind the log (a rewound counter) is STATE_CORRUPT, never silently dropped', async () => {
    await commitOn(fs).commit(stateAt(1));
    await commitOn(fs).commit(stateAt(2));
    const rewound = { ...stateAt(1), step: 3 };
    await expect(commitOn(fs).commit(rewound)).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringMatching(/outbox ends at seq 1 but .*events\.jsonl already holds seq 3/),
    });
    await expect(commitOn(fs).deliver(rewound)).rejects.toMatchObject({ code: 'STATE_CORRUPT' });
    expect(await commitOn(fs).store.load()).toEqual(stateAt(2));
    expect(await seqs(fs)).toEqual([0, 1, 2, 3]);
  });

  it('a writer that lost its lock while another holder wrote ahead is told RUN_LOCKED, not STATE_CORRUPT', async () => {
    await commitOn(fs).commit(stateAt(1));
    // The new holder's records are in the log; the old holder's next change starts where it left off.
    await commitOn(fs).commit(stateAt(2));
    const lost = async () => {
      throw new GoalLoopError('RUN_LOCKED', 'lock lost');
    };
    const behind = { ...stateAt(2), outbox: stateAt(1).outbox };
    await expect(commitOn(fs, lost).save(behind)).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await expect(commitOn(fs, lost).deliver(behind)).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    // A guard that fails for another reason (the lock cannot be read) keeps the real error.
    const unreadable = async () => {
      throw new GoalLoopError('IO_ERROR', 'the lock cannot be read');
    };
    await expect(commitOn(fs, unreadable).save(behind)).rejects.toMatchObject({ code: 'STATE_CORRUPT' });
    expect(await seqs(fs)).toEqual([0, 1, 2, 3]);
  });
});
