import { GoalLoopError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';

/** What the lock file holds. @internal */
export interface LockRecord {
  readonly owner: string;
  readonly pid: number | null;
  readonly heartbeat_at: number;
  readonly heartbeat_iso: string;
  readonly timeout_ms: number;
}

/** A stale lock that was taken over. @internal */
export interface LockTakeover {
  readonly previousOwner: string;
  readonly ageMs: number;
}

/**
 * The run directory's exclusive lock: one loop per run. Taken with an
 * exclusive create; a lock whose heartbeat is older than its timeout is taken
 * over (and the caller logs it); otherwise `RUN_LOCKED`.
 *
 * @internal
 */
export class RunLock {
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
    const record: LockRecord = { owner: this.owner, pid, heartbeat_at: now, heartbeat_iso: new Date(now).toISOString(), timeout_ms: this.timeoutMs };
    return `${JSON.stringify(record)}\n`;
  }

  /** Takes the lock, or takes over a stale one; rejects with `RUN_LOCKED` when another loop holds it. */
  async acquire(): Promise<LockTakeover | null> {
    this.lastBeat = this.clock.now();
    if (await this.fs.createExclusive(this.path, this.record())) return null;
    const held = await this.read();
    if (held === null) {
      if (await this.fs.createExclusive(this.path, this.record())) return null;
      throw new GoalLoopError('RUN_LOCKED', `The run is locked: ${this.path} appeared while taking it.`);
    }
    const ageMs = this.clock.now() - held.heartbeat_at;
    if (ageMs <= held.timeout_ms) {
      throw new GoalLoopError('RUN_LOCKED', `The run is locked by ${held.owner} (pid ${held.pid ?? 'unknown'}, heartbeat ${Math.round(ageMs / 1000)} s ago, stale after ${Math.round(held.timeout_ms / 1000)} s): ${this.path}.`);
    }
    await this.fs.writeText(this.path, this.record());
    const check = await this.read();
    if (check?.owner !== this.owner) throw new GoalLoopError('RUN_LOCKED', `Another loop took over the stale lock first: ${this.path}.`);
    return { previousOwner: held.owner, ageMs };
  }

  private lastBeat = Number.NEGATIVE_INFINITY;

  /**
   * Refreshes the heartbeat (only while this owner holds the lock). Cheap to
   * call often: it writes at most once per third of the timeout unless `force`.
   */
  async heartbeat(force = false): Promise<void> {
    const now = this.clock.now();
    if (!force && now - this.lastBeat < this.timeoutMs / 3) return;
    const held = await this.read();
    if (held?.owner !== this.owner) return;
    await this.fs.writeText(this.path, this.record());
    this.lastBeat = now;
  }

  /** Removes the lock if this owner holds it. */
  async release(): Promise<void> {
    const held = await this.read();
    if (held?.owner === this.owner) await this.fs.remove(this.path);
  }

  // Reads the lock record; an unreadable lock counts as stale since its last change.
  private async read(): Promise<LockRecord | null> {
    const text = await this.fs.readText(this.path);
    if (text === null) return null;
    try {
      const value = JSON.parse(text) as Partial<LockRecord>;
      if (typeof value.owner === 'string' && typeof value.heartbeat_at === 'number' && typeof value.timeout_ms === 'number') {
        return { owner: value.owner, pid: typeof value.pid === 'number' ? value.pid : null, heartbeat_at: value.heartbeat_at, heartbeat_iso: String(value.heartbeat_iso ?? ''), timeout_ms: value.timeout_ms };
      }
    } catch {
      // fall through: a torn or foreign lock file
    }
    const stat = await this.fs.stat(this.path);
    return { owner: 'unknown (unreadable lock file)', pid: null, heartbeat_at: stat?.mtimeMs ?? 0, heartbeat_iso: '', timeout_ms: this.timeoutMs };
  }
}
