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
 * `guard` runs before every write (the lock's heartbeat and fencing check), so
 * a holder that lost its lock writes nothing more.
 *
 * @internal
 */
export class OutboxCommit<S extends WithOutbox<E>, E extends Sequenced> {
  constructor(
    readonly store: JsonStore<S>,
    readonly log: JsonlLog<E>,
    private readonly guard: () => Promise<void> = async () => {},
  ) {}

  /** Writes `state` (its outbox holding this change's records), then appends those records. */
  async commit(state: S): Promise<S> {
    await this.guard();
    await this.store.save(state);
    await this.deliver(state);
    return state;
  }

  /** Appends the records of `state.outbox` the log does not hold yet; returns how many it appended. */
  async deliver(state: S): Promise<number> {
    if (state.outbox.length === 0) return 0;
    await this.guard();
    return this.log.appendOnce(state.outbox);
  }
}
