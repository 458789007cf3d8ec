// The timeout and age readLoopStatus gives a lock it cannot read as a lock record: the reading loop's timeout where a
// loop would take the file over by it, null where no loop takes it over; ages in whole milliseconds.
import { describe, expect, it } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { PATHS, RUN, START } from './helpers.js';

describe('readLoopStatus: a loop.lock that is not a lock record', () => {
  it("is dated in whole milliseconds from its file time, and judged by the reading loop's timeout", async () => {
    const fs = createMemoryFileSystem({ files: { [PATHS.lock]: 'not a lock' }, now: () => START + 0.44 });
    const clock = createManualClock(START + 4_000);
    const status = await readLoopStatus({ fs, runDir: RUN, clock, lockTimeoutMs: 9_000 });
    expect(status.lock).toMatchObject({ heartbeatAgeMs: 4_000, timeoutMs: 9_000, holder: 'unknown' });
  });

  it('that cannot be read at all stops every loop alike: no timeout applies', async () => {
    const base = createMemoryFileSystem({ files: { [PATHS.lock]: '{}' } });
    const denied: FileSystem = {
      ...base,
      readBytes: (path, position, length) =>
        path === PATHS.lock
          ? Promise.reject(new GoalLoopError('IO_ERROR', `read "${path}" failed: EACCES`))
          : base.readBytes(path, position, length),
    };
    const status = await readLoopStatus({ fs: denied, runDir: RUN, clock: createManualClock(START) });
    expect(status.lock).toMatchObject({ timeoutMs: null, holder: 'unknown' });
    expect(status.issues).toEqual([
      expect.objectContaining({ code: 'unreadable', message: expect.stringContaining('EACCES') }),
    ]);
  });

  it('a directory there is no lock any loop takes over: neither age nor timeout', async () => {
    const fs = createMemoryFileSystem();
    await fs.mkdir(PATHS.lock);
    const status = await readLoopStatus({ fs, runDir: RUN, clock: createManualClock(START), lockTimeoutMs: 5_000 });
    expect(status.lock).toMatchObject({ heartbeatAgeMs: null, timeoutMs: null });
  });
});
