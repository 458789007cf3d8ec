import { describe, expect, it } from 'vitest';
import type { GeneratorInput } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { DIR } from './helpers.js';

// A runner that loses the execution's lock while its generator works must stop that generator: the generator's
// signal fires once the heartbeat finds another runner holding the lock, and the first runner ends RUN_LOCKED.

const LOCK_TIMEOUT_MS = 9_000;
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('StagedPipeline: losing the lock during a host call', () => {
  it("aborts the generator's signal and ends RUN_LOCKED, while the runner that took over goes on", async () => {
    const fs = createMemoryFileSystem();
    const clock = createManualClock(0);
    let seen: AbortSignal | undefined;
    let entered!: () => void;
    const inCall = new Promise<void>((resolve) => {
      entered = resolve;
    });
    // A generator that honours its signal: it ends only when aborted.
    const waiting = (input: GeneratorInput) => {
      seen = input.signal;
      entered();
      return new Promise<{ output: string }>((_, reject) =>
        input.signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    };
    const first = new StagedPipeline({
      fs,
      dir: DIR,
      clock,
      lockTimeoutMs: LOCK_TIMEOUT_MS,
      stages: [{ id: 'a', generate: waiting }],
    });
    const outcome = first.run({ executionId: 'x', spec: {} }).then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    await inCall;

    // A second runner whose clock says the first one's heartbeat is stale takes the execution over.
    const second = new StagedPipeline({
      fs,
      dir: DIR,
      clock: createManualClock(LOCK_TIMEOUT_MS + 1),
      lockTimeoutMs: LOCK_TIMEOUT_MS,
      stages: [{ id: 'a', generate: () => new Promise<{ output: string }>(() => undefined) }],
    });
    void second.run({ executionId: 'x', spec: {} }).catch(() => undefined);
    await tick();
    expect(seen?.aborted).toBe(false);

    clock.advance(LOCK_TIMEOUT_MS);
    await tick();
    expect(seen?.aborted).toBe(true);
    expect(await outcome).toBe('RUN_LOCKED');
  });
});
