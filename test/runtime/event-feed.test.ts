import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventFeed } from '../../src/runtime/event-feed.js';

// The event feed: publish order kept for every interleaving of publishes and takes, no loss, and the two endings.

interface Event {
  readonly type: string;
  readonly seq: number;
}

const ignore = (): void => undefined;

describe('EventFeed', () => {
  it('an iterator gets every published event once, in order, however publishes and takes interleave', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 60 }), async (script) => {
        const feed = new EventFeed<Event>(undefined, ignore);
        const controller = new AbortController();
        const iterator = feed.subscribe(controller.signal);
        const taken: Promise<IteratorResult<Event>>[] = [];
        let seq = 0;
        // true publishes the next event, false asks for one (perhaps before it exists).
        for (const publish of script) {
          if (publish) feed.publish({ type: 'e', seq: seq++ });
          else taken.push(iterator.next());
        }
        controller.abort();
        const rest: Event[] = [];
        for await (const event of iterator) rest.push(event);
        const results = await Promise.all(taken);
        const got = [...results.filter((result) => !result.done).map((result) => result.value), ...rest];
        expect(got.map((event) => event.seq)).toEqual(Array.from({ length: seq }, (_, index) => index));
        // A take that came after the last event resolves done at the abort.
        expect(results.filter((result) => result.done)).toHaveLength(Math.max(0, taken.length - seq));
      }),
    );
  });

  it("a listener's throw goes to the handler with its event; publish never throws and iterators still get it", () => {
    const reports: [unknown, Event][] = [];
    const feed = new EventFeed<Event>(
      () => {
        throw new Error('no');
      },
      (error, event) => reports.push([error, event]),
    );
    const iterator = feed.subscribe();
    expect(() => feed.publish({ type: 'e', seq: 0 })).not.toThrow();
    expect(reports).toEqual([[new Error('no'), { type: 'e', seq: 0 }]]);
    return expect(iterator.next()).resolves.toEqual({ value: { type: 'e', seq: 0 }, done: false });
  });

  it('an ended iterator is forgotten by the feed (nothing more is queued for it)', async () => {
    const feed = new EventFeed<Event>(undefined, ignore);
    const iterator = feed.subscribe();
    feed.publish({ type: 'e', seq: 0 });
    await iterator.return?.();
    feed.publish({ type: 'e', seq: 1 });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect((feed as unknown as { subscriptions: Set<unknown> }).subscriptions.size).toBe(0);
  });
});
