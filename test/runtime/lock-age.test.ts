import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heartbeatPhrase, judgeHeartbeat } from '../../src/runtime/lock-age.js';

const NOW = Date.UTC(2026, 0, 1);
const LIMIT = 600_000;
const HOUR = 3_600_000;

describe('judgeHeartbeat: how old a heartbeat is by the reader’s clock', () => {
  it('a heartbeat in the past, or ahead by at most the timeout, is believed', () => {
    expect(judgeHeartbeat(NOW - 5_000, NOW - HOUR, NOW, LIMIT)).toEqual({
      ageMs: 5_000,
      aheadMs: 0,
      byFileTime: false,
    });
    expect(judgeHeartbeat(NOW + 2_000, NOW - HOUR, NOW, LIMIT)).toEqual({
      ageMs: -2_000,
      aheadMs: 2_000,
      byFileTime: false,
    });
    expect(judgeHeartbeat(NOW + LIMIT, NOW - HOUR, NOW, LIMIT)).toEqual({
      ageMs: -LIMIT,
      aheadMs: LIMIT,
      byFileTime: false,
    });
  });

  it('one more than the timeout ahead is not: the files’ last change dates it (gone files: age 0)', () => {
    expect(judgeHeartbeat(NOW + LIMIT + 1, NOW - HOUR, NOW, LIMIT)).toEqual({
      ageMs: HOUR,
      aheadMs: LIMIT + 1,
      byFileTime: true,
    });
    expect(judgeHeartbeat(8.64e15, NOW - 5, NOW, 1)).toEqual({ ageMs: 5, aheadMs: 8.64e15 - NOW, byFileTime: true });
    expect(judgeHeartbeat(1e308, null, NOW, 0)).toMatchObject({ ageMs: 0, byFileTime: true });
  });

  it('property: believed exactly when at most the limit ahead; the age is the believed time’s', () => {
    const time = fc.integer({ min: NOW - 10 * HOUR, max: NOW + 10 * HOUR });
    fc.assert(
      fc.property(time, time, fc.integer({ min: 0, max: 2 * HOUR }), (recordedAt, changedAt, limit) => {
        const age = judgeHeartbeat(recordedAt, changedAt, NOW, limit);
        const believed = recordedAt - NOW <= limit;
        expect(age.byFileTime).toBe(!believed);
        expect(age.ageMs).toBe(NOW - (believed ? recordedAt : changedAt));
        expect(age.aheadMs).toBe(Math.max(0, recordedAt - NOW));
      }),
    );
  });
});

describe('heartbeatPhrase', () => {
  it('says ago, or ahead of this clock, never a negative number of seconds', () => {
    expect(heartbeatPhrase(judgeHeartbeat(NOW - 12_000, null, NOW, LIMIT))).toBe('heartbeat 12 s ago');
    expect(heartbeatPhrase(judgeHeartbeat(NOW + 2_000, null, NOW, LIMIT))).toBe('heartbeat 2 s ahead of this clock');
    expect(heartbeatPhrase(judgeHeartbeat(NOW + HOUR, NOW - 5_000, NOW, LIMIT))).toBe(
      'heartbeat 3600 s ahead of this clock, too far to trust, so judged by when its lock files last changed: 5 s ago',
    );
    expect(heartbeatPhrase(judgeHeartbeat(NOW - 3_000, null, NOW, LIMIT), 'last changed')).toBe('last changed 3 s ago');
  });

  it('property: no phrase holds a minus sign', () => {
    const time = fc.double({ min: -1e308, max: 1e308, noNaN: true });
    fc.assert(
      fc.property(time, fc.option(time, { nil: null }), fc.integer({ min: 0, max: 2 * HOUR }), (at, changed, limit) => {
        expect(heartbeatPhrase(judgeHeartbeat(at, changed, NOW, limit))).not.toContain('-');
      }),
    );
  });
});
