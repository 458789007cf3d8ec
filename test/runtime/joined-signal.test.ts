import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { joinSignals } from '../../src/runtime/joined-signal.js';

describe('joinSignals', () => {
  it('aborts with the reason of the first source that aborts, and then follows none', () => {
    const a = new AbortController();
    const b = new AbortController();
    const { signal } = joinSignals([a.signal, undefined, b.signal]);
    expect(signal.aborted).toBe(false);
    b.abort('b first');
    a.abort('a later');
    expect(signal.reason).toBe('b first');
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
  });

  it('is aborted at once by a source already aborted', () => {
    const { signal } = joinSignals([AbortSignal.abort('done'), new AbortController().signal]);
    expect(signal.reason).toBe('done');
  });

  it('leaves nothing on a long-lived source once released, however many are joined to it', () => {
    const host = new AbortController();
    for (let n = 0; n < 1_000; n++) joinSignals([host.signal, new AbortController().signal]).release();
    expect(getEventListeners(host.signal, 'abort')).toHaveLength(0);
    const kept = joinSignals([host.signal]);
    host.abort('stop');
    expect(kept.signal.reason).toBe('stop');
  });
});
