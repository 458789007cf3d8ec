import { GoalLoopError, isGoalLoopError } from '../errors.js';
import type { JsonStore } from './json-store.js';
import type { JsonlLog, Sequenced } from './jsonl-log.js';

/** A persisted record whose last change's log records wait in its outbox until they are appended. @internal */
export interface WithOutbox<E extends Sequenced> {
  readonly outbox: readonly E[];
}

/** State-then-records commit (exactly-once by `seq`, fenced once per commit); see docs/sessions-and-locking.md. @internal */
export class OutboxCommit<S extends WithOutbox<E>, E extends Sequenced> {
  constructor(
    readonly store: JsonStore<S>,
    readonly log: JsonlLog<E>,
    private readonly guard: () => Promise<void> = async () => {},
  ) {}

  /** Writes `state` then its records: one durable point, fenced once; `alongside` is written after the fence. */
  async commit(state: S, alongside?: () => Promise<void>): Promise<S> {
    await this.save(state, alongside);
    await this.append(state);
    return state;
  }

  /** Commits `state` with its records left in the outbox; `sync: false` for changes that only announce work. */
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

  // A guard refusing with RUN_LOCKED means the records ahead are a new holder's: say that, not corruption.
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

/** True when `next` only empties the delivered outbox, so it need not be written. Pure. @internal */
export function onlyClearsOutbox<S extends WithOutbox<Sequenced>>(previous: S, next: S): boolean {
  if (next.outbox.length > 0 || previous === next) return false;
  const keys = Object.keys(next) as (keyof S)[];
  if (keys.length !== Object.keys(previous).length) return false;
  return keys.every((key) => key === 'outbox' || next[key] === previous[key]);
}
