import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withUnitOfWork } from '../../src/runtime/unit-of-work.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// The one unit of work every capability opens: lock, commit through it, release whatever happens.

const schema = z.object({ n: z.number(), outbox: z.array(z.object({ seq: z.number() })) });
const spec = (fs: ReturnType<typeof createMemoryFileSystem>) => ({
  fs,
  lockPath: 'run/the.lock',
  clock: createManualClock(0),
  capability: 'test',
  lockTimeoutMs: 60_000,
});

describe('withUnitOfWork', () => {
  it('commits the record then its log under the lock, and releases the lock', async () => {
    const fs = createMemoryFileSystem();
    const n = await withUnitOfWork(spec(fs), async (unit) => {
      expect(unit.takeover).toBeNull();
      expect(await fs.readText('run/the.lock')).not.toBeNull();
      const commit = unit.commit<z.output<typeof schema>, { seq: number }>({
        state: 'run/state.json',
        schema,
        log: 'run/log.jsonl',
      });
      const saved = await commit.commit({ n: 1, outbox: [{ seq: 0 }] });
      await unit.heartbeat(async () => undefined);
      return saved.n;
    });
    expect(n).toBe(1);
    expect(JSON.parse((await fs.readText('run/state.json')) ?? 'null')).toMatchObject({ n: 1 });
    expect(await fs.readText('run/log.jsonl')).toBe('{"seq":0}\n');
    expect(await fs.readText('run/the.lock')).toBeNull();
  });

  it('a held lock is RUN_LOCKED; a failed work still releases it, its own error kept', async () => {
    const fs = createMemoryFileSystem();
    await expect(
      withUnitOfWork(spec(fs), async () => {
        await expect(withUnitOfWork(spec(fs), async () => 'never')).rejects.toMatchObject({ code: 'RUN_LOCKED' });
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await withUnitOfWork(spec(fs), async () => 'free')).toBe('free');
  });
});
