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
 * exclusive create. A lock whose heartbeat is older than its timeout is taken
 * over by renaming it aside (only one renamer wins) and creating a fresh one;
 * otherwise `RUN_LOCKED`. A heartbeat that finds the lock owned by someone
 * else rejects with `RUN_LOCKED`, so a loop that lost its lock stops.
 *
 * @internal
 */
export class RunLock {
  private lastBeat = Number.NEGATIVE_INFINITY;

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
      pid,
      heartbeat_at: now,
      heartbeat_iso: new Date(now).toISOString(),
      timeout_ms: this.timeoutMs,
    };
    return `${JSON.stringify(record)}\n`;
  }

  /** Takes the lock, or takes over a stale one; rejects with `RUN_LOCKED` when another loop holds it. */
  async acquire(): Promise<LockTakeover | null> {
    this.lastBeat = this.clock.now();
    if (await this.fs.createExclusive(this.path, this.record())) return null;
    const held = await this.read(this.path);
    if (held === null) {
      if (await this.fs.createExclusive(this.path, this.record())) return null;
      throw new GoalLoopError('RUN_LOCKED', `The run is locked: ${this.path} appeared while taking it.`);
    }
    const ageMs = this.clock.now() - held.heartbeat_at;
    if (ageMs <= held.timeout_ms) {
      throw new GoalLoopError(
        'RUN_LOCKED',
        `The run is locked by ${held.owner} (pid ${held.pid ?? 'unknown'}, heartbeat ${Math.round(ageMs / 1000)} s ago, stale after ${Math.round(held.timeout_ms / 1000)} s): ${this.path}.`,
      );
    }
    await this.takeOver(held);
    return { previousOwner: held.owner, ageMs };
  }

  // Moves the stale lock aside and creates ours; a racing loop either fails to move it or moved a fresh lock and puts it back.
  private async takeOver(stale: LockRecord): Promise<void> {
    const aside = `${this.path}.stale-${this.owner.replace(/[^\w.-]/g, '_')}`;
    try {
      await this.fs.rename(this.path, aside);
    } catch (error) {
      throw new GoalLoopError('RUN_LOCKED', `Another loop is taking over the stale lock ${this.path}.`, {
        cause: error,
      });
    }
    const moved = await this.fs.readText(aside);
    await this.fs.remove(aside);
    if (moved !== null && !sameHolder(moved, stale)) {
      await this.fs.createExclusive(this.path, moved);
      throw new GoalLoopError('RUN_LOCKED', `Another loop took over the stale lock ${this.path} first.`);
    }
    if (!(await this.fs.createExclusive(this.path, this.record())))
      throw new GoalLoopError('RUN_LOCKED', `Another loop took over the stale lock ${this.path} first.`);
  }

  /**
   * Refreshes the heartbeat; cheap to call often (it writes at most once per
   * third of the timeout unless `force`). Rejects with `RUN_LOCKED` when the
   * lock is no longer this owner's.
   */
  async heartbeat(force = false): Promise<void> {
    const now = this.clock.now();
    if (!force && now - this.lastBeat < this.timeoutMs / 3) return;
    const held = await this.read(this.path);
    if (held?.owner !== this.owner) {
      throw new GoalLoopError(
        'RUN_LOCKED',
        `This loop lost the run lock ${this.path} (now held by ${held?.owner ?? 'nobody'}); its heartbeat was older than the lock timeout.`,
      );
    }
    await this.fs.writeText(this.path, this.record());
    this.lastBeat = now;
  }

  /** Removes the lock if this owner holds it. */
  async release(): Promise<void> {
    const held = await this.read(this.path);
    if (held?.owner === this.owner) await this.fs.remove(this.path);
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
      pid: null,
      heartbeat_at: stat?.mtimeMs ?? 0,
      heartbeat_iso: '',
      timeout_ms: this.timeoutMs,
    };
  }
}

// Parses a lock file's text, or null when it is not a lock record.
function parseLockRecord(text: string): LockRecord | null {
  try {
    const value = JSON.parse(text) as Partial<LockRecord>;
    if (
      typeof value.owner === 'string' &&
      typeof value.heartbeat_at === 'number' &&
      typeof value.timeout_ms === 'number'
    ) {
      return {
        owner: value.owner,
        pid: typeof value.pid === 'number' ? value.pid : null,
        heartbeat_at: value.heartbeat_at,
        heartbeat_iso: String(value.heartbeat_iso ?? ''),
        timeout_ms: value.timeout_ms,
      };
    }
  } catch {
    // a torn or foreign lock file
  }
  return null;
}

// True when a moved-aside lock is the stale one this loop decided to take over (same owner, same heartbeat).
function sameHolder(text: string, stale: LockRecord): boolean {
  const moved = parseLockRecord(text);
  if (moved === null) return stale.owner.startsWith('unknown');
  return moved.owner === stale.owner && moved.heartbeat_at === stale.heartbeat_at;
}
