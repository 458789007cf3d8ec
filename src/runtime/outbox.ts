import { GoalLoopError, isGoalLoopError } from '../errors.js';
import type { JsonStore } from './json-store.js';
import type { JsonlLog, Sequenced } from './jsonl-log.js';

/** A persisted record whose last change's log records wait in its outbox until they are appended. @internal */
export interface WithOutbox<E extends Sequenced> {
  readonly outbox: readonly E[];
}

/**
 * The state-then-records commit every persisted state machine of the library
 * uses: the new state is written atomically with the change's log records in
 * its `outbox`, then the records are appended to the log, each exactly once
 * (by `seq`). A crash between the two writes loses nothing and duplicates
 * nothing: the next holder delivers the outbox with {@link OutboxCommit.deliver}.
 * `guard` (the lock's fencing check, `RunLock.fence`) runs once per commit,
 * before its first write, so a holder that lost its lock writes nothing more.
 *
 * Since the state is always written before its records, the log never holds
 * a `seq` beyond the last of the state's outbox; an outbox behind the log (a
 * state restored from a copy, a counter edited by hand) would have its
 * records skipped as delivered, so it is `STATE_CORRUPT` instead.
 *
 * @internal
 */
export class OutboxCommit<S extends WithOutbox<E>, E extends Sequenced> {
  constructor(
    readonly store: JsonStore<S>,
    readonly log: JsonlLog<E>,
    private readonly guard: () => Promise<void> = async () => {},
  ) {}

  /**
   * Writes `state` (its outbox holding this change's records), then appends those records: one durable point, fenced
   * once. `alongside` is a write of the same point made after the fence check and before the state (a file the state
   * then vouches for).
   */
  async commit(state: S, alongside?: () => Promise<void>): Promise<S> {
    await this.save(state, alongside);
    await this.append(state);
    return state;
  }

  /**
   * The first half of {@link OutboxCommit.commit}: writes `state` atomically, its records left in its outbox for
   * {@link OutboxCommit.append}. Once it resolves the change is committed; a rejection (the guard refused, the write
   * failed) means it is not. `sync: false` for a change that only announces work (an iteration, a stage started): a
   * power loss may take it back to the point before, which the next synced commit makes durable with it.
   */
  async save(state: S, alongside?: () => Promise<void>, options?: { readonly sync?: boolean }): Promise<void> {
    await this.checkAheadFenced(state);
    await this.guard();
    await alongside?.();
    await this.store.save(state, options);
  }

  /** The second half of {@link OutboxCommit.commit}: appends the outbox of the state `save` just wrote, under its fence check. */
  async append(state: S): Promise<number> {
    return state.outbox.length === 0 ? 0 : this.log.appendOnce(state.outbox);
  }

  /** Appends the records of `state.outbox` the log does not hold yet (a state saved earlier); returns how many it appended. */
  async deliver(state: S): Promise<number> {
    if (state.outbox.length === 0) return 0;
    await this.checkAheadFenced(state);
    await this.guard();
    return this.append(state);
  }

  // checkAhead, but a writer whose guard now refuses with RUN_LOCKED (it lost its lock, and the records ahead are the
  // new holder's) is told that, not that its state is corrupt; any other failure of the guard keeps the real error.
  private async checkAheadFenced(state: S): Promise<void> {
    try {
      await this.checkAhead(state);
    } catch (error) {
      const lost = await this.guard().then(
        () => null,
        (refusal: unknown) => (isGoalLoopError(refusal, 'RUN_LOCKED') ? refusal : null),
      );
      throw lost ?? error;
    }
  }

  // Refuses an outbox whose last record is older than the log's last one (it would be dropped as delivered).
  private async checkAhead(state: S): Promise<void> {
    const newest = state.outbox.at(-1);
    if (newest === undefined) return;
    const last = await this.log.lastSequence();
    if (newest.seq >= last) return;
    throw new GoalLoopError(
      'STATE_CORRUPT',
      `${this.store.path}: its outbox ends at seq ${newest.seq} but ${this.log.path} already holds seq ${last}; its records would be lost (was its counter edited or the file restored from a copy?). Move it aside to start afresh.`,
    );
  }
}

/**
 * True when `next` is `previous` with its delivered outbox emptied and nothing else changed (every other field the
 * same value): a record whose only news is that its records are in the log, which the log already says, so it need
 * not be written (a redelivery of the outbox on disk appends nothing). Pure.
 *
 * @internal
 */
export function onlyClearsOutbox<S extends WithOutbox<Sequenced>>(previous: S, next: S): boolean {
  if (next.outbox.length > 0 || previous === next) return false;
  const keys = Object.keys(next) as (keyof S)[];
  if (keys.length !== Object.keys(previous).length) return false;
  return keys.every((key) => key === 'outbox' || next[key] === previous[key]);
}
