import { GoalLoopError } from '../errors.js';
import { fnv1a64 } from '../kit/hash.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { type LockRecord, parseLockRecord, sameLockRecord } from './lock-record.js';

export type { LockRecord } from './lock-record.js';

/** A stale lock that was taken over. @internal */
export interface LockTakeover {
  readonly previousOwner: string;
  readonly ageMs: number;
}

// How many crashed takeovers of one stale lock a newcomer steps over before it gives up.
const MAX_CLAIMS = 64;

/**
 * The run directory's exclusive lock: one loop per run. Taken with an
 * exclusive create. A lock whose heartbeat is older than the smaller of its
 * own `timeout_ms` and this loop's `timeoutMs` is stale (the holder promised
 * to beat within its timeout; this loop was told to wait no longer than its
 * own) and is taken over: the newcomer that exclusively creates the claim
 * file of that stale record replaces it atomically (the lock file never
 * disappears, so no other loop slips in), and {@link RunLock.acquire} reports
 * the takeover to that one winner; every other racer gets `RUN_LOCKED`. Each
 * acquisition writes a fresh fencing `token`; {@link RunLock.fence} checks it
 * before every write, so a holder that lost its lock writes nothing more.
 *
 * @internal
 */
export class RunLock {
  private lastBeat = Number.NEGATIVE_INFINITY;
  private token = '';

  constructor(
    private readonly fs: FileSystem,
    readonly path: string,
    private readonly clock: Clock,
    readonly owner: string,
    private readonly timeoutMs: number,
  ) {}

  // The lock record this owner writes now.
  private record(): string {
    const now = this.clock.now();
    const pid = typeof globalThis.process?.pid === 'number' ? globalThis.process.pid : null;
    const record: LockRecord = {
      owner: this.owner,
      token: this.token,
      pid,
      heartbeat_at: now,
      heartbeat_iso: new Date(now).toISOString(),
      timeout_ms: this.timeoutMs,
    };
    return `${JSON.stringify(record)}\n`;
  }

  /** Takes the lock, or takes over a stale one (reported); rejects with `RUN_LOCKED` when another loop holds it. */
  async acquire(): Promise<LockTakeover | null> {
    this.token = globalThis.crypto.randomUUID();
    this.lastBeat = this.clock.now();
    if (await this.fs.createExclusive(this.path, this.record())) return null;
    const held = await this.read(this.path);
    if (held === null) {
      if (await this.fs.createExclusive(this.path, this.record())) return null;
      throw new GoalLoopError('RUN_LOCKED', `The run is locked: ${this.path} appeared while taking it.`);
    }
    const ageMs = this.clock.now() - held.heartbeat_at;
    const staleAfter = Math.min(held.timeout_ms, this.timeoutMs);
    if (ageMs <= staleAfter) {
      throw new GoalLoopError(
        'RUN_LOCKED',
        `The run is locked by ${held.owner} (pid ${held.pid ?? 'unknown'}, heartbeat ${Math.round(ageMs / 1000)} s ago, stale after ${Math.round(staleAfter / 1000)} s): ${this.path}.`,
      );
    }
    await this.takeOver(held, staleAfter);
    return { previousOwner: held.owner, ageMs };
  }

  // Claims the stale record (one exclusive create per record and attempt), checks it is still the lock, replaces it.
  private async takeOver(stale: LockRecord, staleAfter: number): Promise<void> {
    const base = `${this.path}.takeover-${fnv1a64(`${stale.owner}\n${stale.token}\n${stale.heartbeat_at}`)}`;
    let claim = '';
    for (let attempt = 0; claim === ''; attempt++) {
      const name = `${base}-${attempt}`;
      if (await this.fs.createExclusive(name, this.record())) claim = name;
      else {
        const other = await this.read(name);
        if (other === null || this.clock.now() - other.heartbeat_at <= staleAfter || attempt + 1 >= MAX_CLAIMS)
          throw new GoalLoopError('RUN_LOCKED', `Another loop is taking over the stale lock ${this.path}.`);
      }
    }
    try {
      const current = await this.read(this.path);
      if (current === null || !sameLockRecord(current, stale))
        throw new GoalLoopError('RUN_LOCKED', `Another loop took over the stale lock ${this.path} first.`);
      await this.fs.writeText(this.path, this.record());
    } finally {
      await this.fs.remove(claim);
    }
  }

  /**
   * Refreshes the heartbeat; cheap to call often (it reads and writes at most
   * once per third of the timeout unless `force`). Rejects with `RUN_LOCKED`
   * when the lock is no longer this owner's.
   */
  async heartbeat(force = false): Promise<void> {
    if (!force && this.clock.now() - this.lastBeat < this.timeoutMs / 3) return;
    await this.checkHeld();
    await this.beat();
  }

  /**
   * The fencing check, for before every state write and every append: reads
   * the lock file (one small read) and rejects with `RUN_LOCKED` unless it
   * still holds this acquisition's token; refreshes the heartbeat when due.
   */
  async fence(): Promise<void> {
    await this.checkHeld();
    if (this.clock.now() - this.lastBeat >= this.timeoutMs / 3) await this.beat();
  }

  /** Removes the lock if this acquisition still holds it. */
  async release(): Promise<void> {
    const held = await this.read(this.path);
    if (this.holds(held)) await this.fs.remove(this.path);
  }

  // Writes a fresh heartbeat.
  private async beat(): Promise<void> {
    const now = this.clock.now();
    await this.fs.writeText(this.path, this.record());
    this.lastBeat = now;
  }

  // True when the record read is this acquisition's (owner and fencing token).
  private holds(held: LockRecord | null): boolean {
    return held !== null && held.owner === this.owner && held.token === this.token;
  }

  // Resolves when the lock file still holds this acquisition; otherwise RUN_LOCKED.
  private async checkHeld(): Promise<void> {
    const held = await this.read(this.path);
    if (this.holds(held)) return;
    throw new GoalLoopError(
      'RUN_LOCKED',
      `This loop lost the run lock ${this.path} (now held by ${held?.owner ?? 'nobody'}); its heartbeat was older than the lock timeout.`,
    );
  }

  // Reads a lock record; an unreadable lock counts as stale since its last change.
  private async read(path: string): Promise<LockRecord | null> {
    const text = await this.fs.readText(path);
    if (text === null) return null;
    const parsed = parseLockRecord(text);
    if (parsed !== null) return parsed;
    const stat = await this.fs.stat(path);
    return {
      owner: 'unknown (unreadable lock file)',
      token: '',
      pid: null,
      heartbeat_at: stat?.mtimeMs ?? 0,
      heartbeat_iso: '',
      timeout_ms: this.timeoutMs,
    };
  }
}
