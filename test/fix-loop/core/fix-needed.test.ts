import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failingTestNames, fixNeeded, MAX_FAILING_TESTS } from '../../../src/fix-loop/core/fix-needed.js';
import { createFixSessionState } from '../../../src/fix-loop/core/start.js';

// A name as a test runner prints one: a line of its own, trimmed, not empty.
const name = fc
  .string({ minLength: 1, maxLength: 60 })
  .map((text) => text.replace(/[\r\n]/g, ' ').trim())
  .filter((text) => text !== '');

describe('failingTestNames', () => {
  it('reads back every failing test a report heading, the spec reporter or TAP names, once each, in order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { maxLength: 20 }),
        fc.constantFrom('✗ ', '✖ ', 'not ok 3 - '),
        (names, mark) => {
          const output = names.map((test) => `  ${mark}${test}\nsome detail\n`).join('');
          expect(failingTestNames(`${output}${output}`)).toEqual(names);
        },
      ),
    );
  });

  it(`lists at most ${MAX_FAILING_TESTS}, each cut at 200 characters`, () => {
    const output = Array.from({ length: 80 }, (_, i) => `✗ test ${i} ${'x'.repeat(300)}`).join('\n');
    const names = failingTestNames(output);
    expect(names).toHaveLength(MAX_FAILING_TESTS);
    expect(names.every((test) => test.length === 200)).toBe(true);
    expect(failingTestNames('ok 1 - passes\n✓ passes')).toEqual([]);
  });
});

describe('fixNeeded', () => {
  const state = createFixSessionState({
    sessionId: 's',
    start: { goal: 'g', goalType: 't', workspace: 'ws', testCommand: 'npm test', maxAttempts: 5 },
    ts: 'now',
  });
  const gap = (failed: number) => ({
    build: { failing: false, error_count: 0 },
    tests: { failed, passed: 1, total: failed + 1 },
    requirements: { missing: [] },
    gap: failed,
  });

  it('is there exactly when the next step is an iteration', () => {
    expect(fixNeeded(state)).toBeNull();
    const failing = { ...state, environment_verified: true, gap: gap(1), last_failure_output: 'not ok 1 - adds\n' };
    expect(fixNeeded(failing)).toEqual({ failingTests: ['adds'], outputTail: 'not ok 1 - adds\n', attempts: [] });
    expect(fixNeeded({ ...failing, gap: gap(0) })).toBeNull();
    expect(fixNeeded({ ...failing, status: 'escalated' })).toBeNull();
  });
});
