import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RouteAction } from '../../../src/critics/contracts/trace.js';
import type { CheckedDecision } from '../../../src/critics/core/route.js';
import { drawnForCheck, type GateInput, gateByStanding } from '../../../src/critics/core/standing-gate.js';

const base: GateInput = {
  stage: 'code',
  attempt: 1,
  executionId: 'e',
  standing: 'full',
  bySecondCritic: false,
  hasSecondCritic: false,
  checked: { verdict: 'accept' },
  action: { kind: 'accept' },
  draw: { reviewRate: 1, seed: 's' },
};
const actions: RouteAction[] = [
  { kind: 'accept' },
  { kind: 'retry' },
  { kind: 'route_back', to: 'plan' },
  { kind: 'accept_with_gaps' },
  { kind: 'escalate', reason: 'budget', detail: 'spent' },
];
const checks: CheckedDecision[] = [
  { verdict: 'accept' },
  { verdict: 'retry' },
  { verdict: 'invalid', reason: 'invalid_decision', detail: 'bad' },
];

describe('the standing gate', () => {
  it('full, and any decision of a second critic, pass the routed action as it is', () => {
    for (const action of actions)
      for (const standing of ['full', 'probation', 'revoked'] as const) {
        const gated = gateByStanding({ ...base, standing, action, bySecondCritic: standing !== 'full' });
        expect(gated).toEqual({ action, marks: {} });
      }
  });

  it('probation: a drawn accept goes to the second critic or escalates; anything else passes, marked', () => {
    expect(gateByStanding({ ...base, standing: 'probation', hasSecondCritic: true }).action).toEqual({
      kind: 'confirm',
    });
    expect(gateByStanding({ ...base, standing: 'probation' })).toMatchObject({
      action: { kind: 'escalate', reason: 'probation_review' },
      marks: { standing: 'probation', sampled: true },
    });
    const notDrawn = { ...base, standing: 'probation' as const, draw: { reviewRate: 0, seed: 's' } };
    expect(gateByStanding(notDrawn)).toEqual({
      action: { kind: 'accept' },
      marks: { standing: 'probation', sampled: false },
    });
    for (const action of actions.slice(1))
      expect(gateByStanding({ ...base, standing: 'probation', action })).toEqual({
        action,
        marks: { standing: 'probation' },
      });
  });

  it('revoked: every decision escalates critic_revoked, except a broken contract, which stays what it is', () => {
    for (const checked of checks)
      for (const action of actions) {
        const gated = gateByStanding({ ...base, standing: 'revoked', checked, action });
        expect(gated.marks).toEqual({ standing: 'revoked' });
        if (checked.verdict === 'invalid') expect(gated.action).toBe(action);
        else expect(gated.action).toMatchObject({ kind: 'escalate', reason: 'critic_revoked' });
      }
  });
});

describe('the probation draw', () => {
  it('is the same for the same call, monotone in the rate, and draws about the rate', () => {
    const rate = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.nat(50), rate, rate, (seed, id, attempt, a, b) => {
        const [low, high] = a < b ? [a, b] : [b, a];
        const at = (reviewRate: number) => drawnForCheck({ reviewRate, seed }, id, 'code', attempt + 1);
        expect(at(low)).toBe(at(low));
        if (at(low)) expect(at(high)).toBe(true);
        expect(at(0)).toBe(false);
        expect(at(1)).toBe(true);
      }),
      { numRuns: 300 },
    );
    const drawn = Array.from({ length: 2000 }, (_, i) =>
      drawnForCheck({ reviewRate: 0.3, seed: 'x' }, `e${i}`, 'code', 1),
    );
    const share = drawn.filter(Boolean).length / drawn.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
  });
});
