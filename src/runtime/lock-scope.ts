import type { LockTakeover, RunLock } from './run-lock.js';

/**
 * A lock owner id: the capability that holds it, this process, and an id of its own (two holders in one process never
 * share one). @internal
 */
export function lockOwner(capability: string): string {
  return `${capability}:${globalThis.process?.pid ?? 'browser'}:${globalThis.crypto.randomUUID()}`;
}

/** Acquires `lock`, runs `work` with the takeover it reports, and releases the lock whatever happens. @internal */
export async function withAcquiredLock<T>(
  lock: RunLock,
  work: (takeover: LockTakeover | null) => Promise<T>,
): Promise<T> {
  const takeover = await lock.acquire();
  let failed = false;
  try {
    return await work(takeover);
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await lock.release().catch((error: unknown) => {
      if (!failed) throw error;
    });
  }
}
