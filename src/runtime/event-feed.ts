/**
 * What happens to an error a host's event listener threw: it is handed here,
 * with the event, and the run goes on.
 *
 * @public
 */
export type ListenerErrorHandler<E> = (error: unknown, event: E) => void;

/** The default {@link ListenerErrorHandler}: one warning line on the console, since a throwing listener is a host bug. @internal */
export function warnListenerError(owner: string): ListenerErrorHandler<object> {
  return (error, event) => {
    const message = error instanceof Error ? error.message : String(error);
    // A loop event names itself by `type`, a trace record by `kind`, a fix-loop audit entry by `action_type`; all
    // carry their `seq`.
    const { type, kind, action_type, seq } = event as {
      type?: unknown;
      kind?: unknown;
      action_type?: unknown;
      seq?: unknown;
    };
    console.warn(
      `goal-loop: the ${owner} onEvent listener threw on ${String(type ?? kind ?? action_type)} (seq ${String(seq)}): ${message}. ` +
        'The run went on; pass onListenerError to handle this yourself.',
    );
  };
}

/**
 * The events of a run as they are committed, told to the host: its listener
 * (whose throw is reported and never reaches the run) and every open
 * {@link EventFeed.subscribe} iterator.
 *
 * @internal
 */
export class EventFeed<E> {
  private readonly subscriptions = new Set<Subscription<E>>();

  constructor(
    private readonly listener: ((event: E) => void) | undefined,
    private readonly onListenerError: ListenerErrorHandler<E>,
  ) {}

  /** Tells every listener and iterator `event`. Never throws. */
  publish(event: E): void {
    for (const subscription of this.subscriptions) subscription.push(event);
    if (this.listener === undefined) return;
    try {
      this.listener(event);
    } catch (error) {
      try {
        this.onListenerError(error, event);
      } catch {
        // The report's own fault has nowhere left to go.
      }
    }
  }

  /**
   * An iterator of the events published from now on, ending when `signal`
   * aborts (after the events it already holds) or when `return()` is called
   * (at once). It queues every event its consumer has not taken yet.
   */
  subscribe(signal?: AbortSignal): AsyncIterableIterator<E> {
    const subscription = new Subscription<E>(() => this.subscriptions.delete(subscription));
    this.subscriptions.add(subscription);
    subscription.closeOn(signal);
    return subscription;
  }
}

// One consumer's queue: events wait here until next() takes them; next() waits here until an event comes.
class Subscription<E> implements AsyncIterableIterator<E> {
  private readonly queue: E[] = [];
  private readonly waiting: ((result: IteratorResult<E>) => void)[] = [];
  private closed = false;
  private detach = (): void => {};

  constructor(private readonly unsubscribe: () => void) {}

  closeOn(signal: AbortSignal | undefined): void {
    if (signal === undefined) return;
    if (signal.aborted) {
      this.close();
      return;
    }
    const onAbort = (): void => this.close();
    signal.addEventListener('abort', onAbort, { once: true });
    this.detach = () => signal.removeEventListener('abort', onAbort);
  }

  push(event: E): void {
    if (this.closed) return;
    const waiter = this.waiting.shift();
    if (waiter === undefined) this.queue.push(event);
    else waiter({ value: event, done: false });
  }

  next(): Promise<IteratorResult<E>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift() as E, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  return(): Promise<IteratorResult<E>> {
    this.queue.length = 0;
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<E> {
    return this;
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.detach();
    for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
  }
}
