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

describe('any sequence of critic decisions', () => {
  it('ends completed or escalated within Σ(retry budgets + 1) × (maxBacktracks + 1) generator calls', () => {
    fc.assert(
      fc.property(setup, (s) => {
        const ids = ['plan', 'code', 'test', 'review', 'deploy'].slice(0, s.stages);
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
        expect(['completed', 'escalated']).toContain(run.state.status);
        expect(run.generatorCalls).toBeLessThanOrEqual(bound);
        expect(run.state.backtracks).toBeLessThanOrEqual(s.maxBacktracks);
        const seqs = run.trace.map((record) => record.seq);
        expect(seqs).toEqual(seqs.map((_, i) => i));
      }),
      { numRuns: 500 },
    );
  });
});
