import type { ProcessProbe } from '../../src/ports/process-probe.js';
import type { LockRecord } from '../../src/runtime/lock-record.js';

// The lock records the lock tests read: one holder, pid GONE on host build-7, beating at START.

export const LOCK = 'run/loop.lock';
export const START = Date.UTC(2026, 0, 1);
export const TIMEOUT = 600_000;
export const HOST = 'build-7';
export const GONE = 4164;
/** A host where only pid GONE is gone; every other pid is alive. */
export const probe: ProcessProbe = { host: HOST, isGone: (pid) => pid === GONE };

/** The holder's lock record, with `fields` changed. */
export const record = (fields: Partial<LockRecord> = {}): LockRecord => ({
  owner: 'goal-loop:4164:x',
  token: 'tok',
  pid: GONE,
  host: HOST,
  heartbeat_at: START,
  heartbeat_iso: '',
  timeout_ms: TIMEOUT,
  ...fields,
});

/** The text of {@link record}. */
export const lockText = (fields: Partial<LockRecord> = {}): string => JSON.stringify(record(fields));
