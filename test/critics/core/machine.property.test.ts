import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drive } from './drive.js';

const decision = fc.oneof(
  fc.constant({ decision: 'accept' }),
  fc.constant({ decision: 'retry', issues: [{ issue: 'x' }] }),
  fc.constant({ decision: 'escalate' }),
  fc.constantFrom('plan', 'code', 'test', 'nowhere').map((routeTo) => ({ decision: 'route_back', routeTo })),
  fc.constant({ decision: 'bogus' }),
);

const setup = fc.record({
  stages: fc.integer({ min: 1, max: 5 }),
  budgets: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 5, maxLength: 5 }),
  critics: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  onSpent: fc.constantFrom('accept_with_gaps', 'escalate'),
  maxBacktracks: fc.integer({ min: 0, max: 4 }),
  variant: fc.constantFrom('route_back', 'veto'),
  decisions: fc.array(decision, { minLength: 1, maxLength: 40 }),
});

const IDS = ['plan', 'code', 'test', 'review', 'deploy'];

// The machine's settings and a driven run for one generated setup.
function runOf(s: typeof setup extends fc.Arbitrary<infer T> ? T : never) {
  const ids = IDS.slice(0, s.stages);
  const config = {
    stages: ids.map((id, i) => ({
      id,
      hasCritic: s.critics[i] ?? true,
      retryBudget: s.budgets[i] ?? 0,
      onBudgetSpent: s.onSpent as 'accept_with_gaps' | 'escalate',
    })),
    maxBacktracks: s.maxBacktracks,
    variant: s.variant as 'route_back' | 'veto',
    budgetUsd: undefined,
  };
  const bound = config.stages.reduce((sum, stage) => sum + stage.retryBudget + 1, 0) * (s.maxBacktracks + 1);
  const run = drive(config, (_s, _a, i) => s.decisions[i % s.decisions.length], { maxCalls: bound + 1 });
  return { bound, run };
}

describe('any sequence of critic decisions', () => {
  it('ends completed or escalated within Σ(retry budgets + 1) × (maxBacktracks + 1) generator calls', () => {
    fc.assert(
      fc.property(setup, (s) => {
        const { bound, run } = runOf(s);
        expect(['completed', 'escalated']).toContain(run.state.status);
        expect(run.generatorCalls).toBeLessThanOrEqual(bound);
        expect(run.state.backtracks).toBeLessThanOrEqual(s.maxBacktracks);
        const seqs = run.trace.map((record) => record.seq);
        expect(seqs).toEqual(seqs.map((_, i) => i));
      }),
      { numRuns: 500 },
    );
  });

  it('a generator call is `initial` only on its stage’s first call; a route back names a critic at or after it', () => {
    fc.assert(
      fc.property(setup, (s) => {
        for (const { stage, attempt, cause } of runOf(s).run.causes) {
          expect(cause.kind === 'initial', `${stage}#${attempt}`).toBe(attempt === 1);
          if (cause.kind !== 'route_back') continue;
          const [, from = '', to = ''] = /^the (\w+) critic routed back to (\w+)$/.exec(cause.reason ?? '') ?? [];
          expect(IDS.indexOf(to)).toBeGreaterThanOrEqual(0);
          expect(IDS.indexOf(to)).toBeLessThanOrEqual(IDS.indexOf(stage));
          expect(IDS.indexOf(stage)).toBeLessThanOrEqual(IDS.indexOf(from));
        }
      }),
      { numRuns: 500 },
    );
  });
});
