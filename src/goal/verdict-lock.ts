// Writers of goal-verdict.json take turns: each reads, extends and replaces the file under a short lock of its own, so
// concurrent verdicts (one process, several, or tool calls) all land, and readers always see a whole file.
import { GoalLoopError } from '../errors.js';
import { type Clock, systemClock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { lockOwner, withAcquiredLock } from '../runtime/lock-scope.js';
import { RunLock } from '../runtime/run-lock.js';

// A verdict lock whose holder has not beaten for this long is taken over (a writer takes milliseconds).
const VERDICT_LOCK_TIMEOUT_MS = 15_000;

// How long a writer waits for its turn before it fails loudly (twice the takeover time: a dead holder is outwaited).
const VERDICT_WAIT_MS = 2 * VERDICT_LOCK_TIMEOUT_MS;

/** What a writer does in its turn: read the file, and write it through the fenced `write`. @internal */
export type VerdictTurn<T> = (write: (text: string) => Promise<void>) => Promise<T>;

/** Runs `turn` holding `<path>.lock`, waiting jittered; `RUN_LOCKED` (nothing written) when no turn comes. @internal */
export async function withVerdictLock<T>(
  fs: FileSystem,
  path: string,
  turn: VerdictTurn<T>,
  clock: Clock = systemClock,
): Promise<T> {
  const lock = new RunLock(fs, `${path}.lock`, clock, lockOwner('verdict'), VERDICT_LOCK_TIMEOUT_MS);
  const deadline = clock.now() + VERDICT_WAIT_MS;
  // The fence comes before the write, so a turn refused RUN_LOCKED wrote nothing and is simply taken again.
  const write = async (text: string): Promise<void> => {
    await lock.fence();
    await fs.writeText(path, text);
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return await withAcquiredLock(lock, () => turn(write));
    } catch (error) {
      if (!(error instanceof GoalLoopError && error.code === 'RUN_LOCKED')) throw error;
      if (clock.now() >= deadline)
        throw new GoalLoopError(
          'RUN_LOCKED',
          `${path} is being written by another writer and was not free within ${VERDICT_WAIT_MS} ms; the verdict was not written.`,
          { cause: error },
        );
      // Jitter spreads writers that collided, so they do not collide again.
      await clock.sleep(Math.min(128, 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}
