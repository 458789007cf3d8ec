import { GoalLoopError, isGoalLoopError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { heartbeatAge, sweepLockLeftovers } from './lock-heartbeat.js';
import type { LockStaleReason } from './lock-holder.js';
import { lockedMessage, probedHost, staleReason } from './lock-holder.js';
import { formatLockRecord, heartbeatPath, LOCK_WRITE, type LockRecord, readLockRecord } from './lock-record.js';
import { claimTakeOver, swapTakeOver, type TakeoverParty } from './lock-takeover.js';

export type { LockRecord } from './lock-record.js';

/** A stale lock that was taken over. @internal */
export interface LockTakeover {
  readonly previousOwner: string;
  readonly ageMs: number;
  readonly reason: LockStaleReason;
}

/** The run directory's exclusive lock, one loop per run; the protocol is in docs/sessions-and-locking.md. @internal */
export class RunLock {
  private lastBeat = Number.NEGATIVE_INFINITY;
  private token = '';
  // This acquisition's heartbeat file ('' before the first acquisition).
  private beatFile = '';
  // The lock file's text as this acquisition wrote it, and the filesystem whose writes are guarded by it.
  private lockText = '';
  private fenced: FileSystem | null = null;
  private readonly read = (path: string) => readLockRecord(this.fs, path, this.timeoutMs);
  // How long ago the holder of `held` last beat, by this loop's clock.
  private readonly ageOf = (held: LockRecord, staleAfter: number) =>
    heartbeatAge(this.fs, this.path, held, this.clock.now(), staleAfter);

  constructor(
    private readonly fs: FileSystem,
    readonly path: string,
    private readonly clock: Clock,
    readonly owner: string,
    private readonly timeoutMs: number,
  ) {}

  // The lock record this owner writes now (to the lock file, a claim, or its heartbeat file).
  private record(): string {
    return formatLockRecord(this.owner, this.token, this.timeoutMs, this.clock.now(), probedHost(this.fs.processes));
  }

  // The record written to the lock file itself, kept as the text every guarded write expects there.
  private lockRecord(): string {
    this.lockText = this.record();
    return this.lockText;
  }

  /** Guarded by this acquisition's lock record where the filesystem has `guarded`; else the filesystem itself. */
  get writer(): FileSystem {
    return this.fenced ?? this.fs;
  }

  /** Takes the lock, or takes over a stale one (reported); rejects with `RUN_LOCKED` when another loop holds it. */
  async acquire(): Promise<LockTakeover | null> {
    this.token = globalThis.crypto.randomUUID();
    this.beatFile = `${this.path}.beat-${this.token}`;
    this.lastBeat = this.clock.now();
    if (await this.fs.createExclusive(this.path, this.lockRecord(), LOCK_WRITE)) return this.acquired(null);
    const held = await this.read(this.path);
    if (held === null) {
      if (await this.fs.createExclusive(this.path, this.lockRecord(), LOCK_WRITE)) return this.acquired(null);
      throw new GoalLoopError('RUN_LOCKED', `The run is locked: ${this.path} appeared while taking it.`);
    }
    const staleAfter = Math.min(held.timeout_ms, this.timeoutMs);
    const age = await this.ageOf(held, staleAfter);
    const reason = staleReason(held, age.ageMs, staleAfter, this.fs.processes);
    if (reason === null) throw new GoalLoopError('RUN_LOCKED', lockedMessage(this.path, held, age, staleAfter));
    await this.takeOver(held, staleAfter);
    // A gone holder's heartbeat may lie a little ahead of this clock: its age is reported as 0, never negative.
    return this.acquired({ previousOwner: held.owner, ageMs: Math.max(0, Math.round(age.ageMs)), reason });
  }

  // Takes over the stale acquisition: by a guarded replace where the filesystem has one, else by a claim file.
  private async takeOver(stale: LockRecord, staleAfter: number): Promise<void> {
    const party: TakeoverParty = {
      fs: this.fs,
      path: this.path,
      now: () => this.clock.now(),
      record: () => this.record(),
      lockRecord: () => this.lockRecord(),
      read: this.read,
      ageOf: this.ageOf,
    };
    if (!(await swapTakeOver(party, stale, staleAfter))) await claimTakeOver(party, stale, staleAfter);
    const beat = heartbeatPath(this.path, stale.token);
    if (beat !== null) await this.fs.remove(beat).catch(() => undefined);
  }

  // Removes claims and heartbeat files earlier loops left, once older than the timeout; never fails the acquisition.
  private async acquired(takeover: LockTakeover | null): Promise<LockTakeover | null> {
    this.fenced = this.fs.guarded?.([{ path: this.path, text: this.lockText }]) ?? null;
    await sweepLockLeftovers(this.fs, this.path, this.beatFile, this.clock.now(), this.timeoutMs).catch(
      () => undefined,
    );
    return takeover;
  }

  /** Beats at most once per third of the timeout unless `force`; `RUN_LOCKED` when the lock is no longer ours. */
  async heartbeat(force = false): Promise<void> {
    if (!force && this.clock.now() - this.lastBeat < this.timeoutMs / 3) return;
    await this.checkHeld();
    await this.beat();
  }

  /** Before every state write and append: `RUN_LOCKED` unless the lock file still holds our token; beats when due. */
  async fence(): Promise<void> {
    await this.checkHeld();
    if (this.clock.now() - this.lastBeat >= this.timeoutMs / 3) await this.beat();
  }

  /** Like {@link RunLock.fence}, but only beats where {@link RunLock.writer} is guarded (the write checks itself). */
  async fenceWrite(): Promise<void> {
    if (this.fenced === null) return this.fence();
    if (this.clock.now() - this.lastBeat >= this.timeoutMs / 3) await this.beat();
  }

  /** Removes the lock if this acquisition still holds it, and this acquisition's heartbeat file. */
  async release(): Promise<void> {
    if (this.fenced !== null) {
      // A guarded remove: only while the lock is still this acquisition's, in the same step.
      await this.fenced.remove(this.path).catch((error: unknown) => {
        if (!isGoalLoopError(error, 'RUN_LOCKED')) throw error;
      });
    } else {
      const held = await this.read(this.path);
      if (this.holds(held)) await this.fs.remove(this.path);
    }
    await this.dropBeat();
  }

  // Writes a fresh heartbeat to this acquisition's own file (never to the lock file).
  private async beat(): Promise<void> {
    const now = this.clock.now();
    await this.writer.writeText(this.beatFile, this.record(), LOCK_WRITE);
    this.lastBeat = now;
  }

  // Removes this acquisition's heartbeat file (once the lock is not or no longer ours, no one reads it).
  private async dropBeat(): Promise<void> {
    if (this.beatFile !== '') await this.fs.remove(this.beatFile);
  }

  // True when the record read is this acquisition's (owner and fencing token).
  private holds(held: LockRecord | null): boolean {
    return held !== null && held.owner === this.owner && held.token === this.token;
  }

  // Resolves when the lock file still holds this acquisition; otherwise RUN_LOCKED (and its heartbeat file goes).
  private async checkHeld(): Promise<void> {
    const held = await this.read(this.path);
    if (this.holds(held)) return;
    await this.dropBeat().catch(() => undefined);
    throw new GoalLoopError(
      'RUN_LOCKED',
      `This loop lost the run lock ${this.path} (now held by ${held?.owner ?? 'nobody'}); its heartbeat was older than the lock timeout.`,
    );
  }
}
