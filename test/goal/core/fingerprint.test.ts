import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { progressFingerprint } from '../../../src/goal/core/fingerprint.js';
import { command, facts, goal, metric, metricDoc, ran, statuses } from './fixtures.js';

const metricGoal = goal([
  metric('coverage', { metric: 'coverage', operator: '>=', value: 90, rerun_stages: ['08-testing'] }),
]);
const at = (coverage: unknown) =>
  evaluateGoal(facts({ goal: metricGoal, criteria: { coverage: metricDoc({ coverage }) } }));

describe('progressFingerprint', () => {
  it('is the same digest in every process: a fixed value, and unchanged by the JSON round trip of loop-state.json', () => {
    // A resumed loop compares the fingerprint it computes with the one an earlier process persisted, so the digest
    // must not depend on the process (no salt, no object identity): pinned here for one evaluation.
    const evaluation = at(60);
    expect(progressFingerprint(evaluation, statuses('passed'))).toBe('e70aa13fbe972199');
    const persisted = JSON.parse(JSON.stringify(evaluation)) as typeof evaluation;
    expect(progressFingerprint(persisted, statuses('passed'))).toBe('e70aa13fbe972199');
  });

  it('changes when an observed value moves, even if the status does not (60 → 80 toward 90)', () => {
    expect(at(60).criteria[0]?.status).toBe('FAIL');
    expect(at(80).criteria[0]?.status).toBe('FAIL');
    expect(progressFingerprint(at(80), statuses('passed'))).not.toBe(progressFingerprint(at(60), statuses('passed')));
  });

  it('tells a missing observed value from null and from "60"', () => {
    const prints = [at(null), at('abc'), at(undefined)].map((evaluation) => progressFingerprint(evaluation, {}));
    expect(new Set(prints).size).toBe(3);
  });

  it('changes with stage statuses, but not with their key order', () => {
    const evaluation = at(60);
    const a = progressFingerprint(evaluation, { '07-code': 'passed', '08-testing': 'failed' });
    expect(progressFingerprint(evaluation, { '08-testing': 'failed', '07-code': 'passed' })).toBe(a);
    expect(progressFingerprint(evaluation, { '07-code': 'passed', '08-testing': 'passed' })).not.toBe(a);
  });

  it('ignores durations, details and output (timing noise is not progress)', () => {
    const g = goal([command('lint', ['07-code'])]);
    const first = evaluateGoal(
      facts({ goal: g, criteria: { lint: ran({ exitCode: 1, durationMs: 100, stderrTail: 'a' }) } }),
    );
    const second = evaluateGoal(
      facts({ goal: g, criteria: { lint: ran({ exitCode: 1, durationMs: 250, stderrTail: 'b' }) } }),
    );
    expect(progressFingerprint(second, {})).toBe(progressFingerprint(first, {}));
    const third = evaluateGoal(facts({ goal: g, criteria: { lint: ran({ exitCode: 2 }) } }));
    expect(progressFingerprint(third, {})).not.toBe(progressFingerprint(first, {}));
  });

  it('changes with status, score, rerun stages, critical count and built-in checks, not with the reason', () => {
    const base = at(60);
    const print = progressFingerprint(base, {});
    expect(progressFingerprint({ ...base, status: 'ASK_USER' }, {})).not.toBe(print);
    expect(progressFingerprint({ ...base, score: 50 }, {})).not.toBe(print);
    expect(progressFingerprint({ ...base, recommendedRerunStages: ['07-code'] }, {})).not.toBe(print);
    expect(progressFingerprint({ ...base, criticalCount: 1 }, {})).not.toBe(print);
    const builtins = base.builtins.map((check, index) => (index === 0 ? { ...check, status: 'FAIL' as const } : check));
    expect(progressFingerprint({ ...base, builtins }, {})).not.toBe(print);
    expect(progressFingerprint({ ...base, reason: 'other words' }, {})).toBe(print);
  });
});
