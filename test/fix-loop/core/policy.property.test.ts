import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FixAttempt } from '../../../src/fix-loop/contracts/attempt.js';
import { policyDecisionSchema } from '../../../src/fix-loop/contracts/decision.js';
import type { GapModel } from '../../../src/fix-loop/contracts/gap.js';
import { MAX_ATTEMPTS_CAP } from '../../../src/fix-loop/contracts/start.js';
import { computeGap } from '../../../src/fix-loop/core/gap.js';
import { decideNextAction, type PolicyInput } from '../../../src/fix-loop/core/policy.js';
import { attempt } from './fixtures.js';

const small = fc.nat({ max: 20 });

// Any gap model, its total consistent with its parts or not.
const anyGap: fc.Arbitrary<GapModel> = fc.record({
  build: fc.record({ failing: fc.boolean(), error_count: small }),
  tests: fc.record({ failed: small, passed: small, total: small }),
  requirements: fc.record({ missing: fc.array(fc.string(), { maxLength: 3 }) }),
  gap: small,
});

// A gap model as measuring gives it (no missing requirement: those escalate at once).
const measured: fc.Arbitrary<GapModel> = fc
  .record({ failing: fc.boolean(), errors: small, failed: small })
  .map(({ failing, errors, failed }) =>
    computeGap({
      build: { failing, error_count: errors },
      tests: { failed, passed: 1, total: failed + 1 },
      requirements: { missing: [] },
    }),
  );

const anyAttempt = fc
  .record({ before: small, after: fc.option(small), index: small })
  .map(({ before, after, index }) => attempt(index, before, after));

const anyInput: fc.Arbitrary<PolicyInput> = fc.record({
  environment_verified: fc.boolean(),
  gap: fc.option(anyGap),
  attempts: fc.array(anyAttempt, { maxLength: 8 }),
  max_attempts: fc.oneof(fc.integer({ min: -3, max: 80 }), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 2.5)),
});

describe('decideNextAction over arbitrary inputs', () => {
  it('is total: every input gives a decision that satisfies the contract', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        expect(policyDecisionSchema.safeParse(decideNextAction(input)).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is deterministic: the same input (or a copy) gives the same decision', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        expect(decideNextAction(structuredClone(input))).toEqual(decideNextAction(input));
      }),
    );
  });

  it('escalates or converges once attempts reach max_attempts', () => {
    const reached = fc.integer({ min: 1, max: MAX_ATTEMPTS_CAP }).chain((max) =>
      fc.record({
        max: fc.constant(max),
        gap: measured,
        attempts: fc.array(anyAttempt, { minLength: max, maxLength: max }),
      }),
    );
    fc.assert(
      fc.property(reached, ({ max, gap, attempts }) => {
        const decision = decideNextAction({ environment_verified: true, gap, attempts, max_attempts: max });
        expect(['escalate', 'converged']).toContain(decision.action);
      }),
    );
  });

  it('a session driven by the policy ends within max_attempts iterations, whatever the gaps measured', () => {
    const run = fc.record({
      max: fc.integer({ min: 1, max: 12 }),
      first: measured,
      after: fc.array(measured, { minLength: 1, maxLength: 60 }),
    });
    fc.assert(
      fc.property(run, ({ max, first, after }) => {
        let state: PolicyInput = { environment_verified: false, gap: null, attempts: [], max_attempts: max };
        let decisions = 0;
        for (;;) {
          const decision = decideNextAction(state);
          decisions += 1;
          if (decision.action === 'escalate' || decision.action === 'converged') break;
          expect(decisions).toBeLessThanOrEqual(max + 2);
          if (decision.action === 'probe') state = { ...state, environment_verified: true };
          else if (decision.action === 'measure') state = { ...state, gap: first };
          else {
            const before = state.gap as GapModel;
            const next = after[state.attempts.length % after.length] as GapModel;
            const made: FixAttempt = attempt(state.attempts.length, before.gap, next.gap);
            state = { ...state, gap: next, attempts: [...state.attempts, made] };
          }
        }
        expect(state.attempts.length).toBeLessThanOrEqual(max);
      }),
    );
  });
});
