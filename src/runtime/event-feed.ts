/** Receives what a host's event listener threw, with the event; the run goes on. @public */
export type ListenerErrorHandler<E> = (error: unknown, event: E) => void;

/** The default {@link ListenerErrorHandler}: one warning line on the console, since a throwing listener is a host bug. @internal */
export function warnListenerError(owner: string): ListenerErrorHandler<object> {
  return (error, event) => {
    const message = error instanceof Error ? error.message : String(error);
    // Loop events name themselves by `type`, trace records by `kind`, audit entries by `action_type`.
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

/** Tells committed events to the listener (its throws never reach the run) and every open iterator. @internal */
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

  /** Events from now on, queued until taken; ends when `signal` aborts (after those held) or on `return()`. */
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
