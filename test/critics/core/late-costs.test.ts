import { describe, expect, it } from 'vitest';
import type { ExecutionState } from '../../../src/critics/contracts/execution-state.js';
import type { PendingExecutionCost } from '../../../src/critics/contracts/late-cost.js';
import { foldExecutionLateCosts, forgetRemovedExecutionCosts } from '../../../src/critics/core/late-costs.js';
import { initialExecutionState } from '../../../src/critics/core/start.js';
import { planOf } from './drive.js';

const config = planOf(['plan', 'code']);
const start = (over: Partial<ExecutionState> = {}): ExecutionState => ({
  ...initialExecutionState({ executionId: 'e', spec: null, specHash: 'h', nextSeq: 7, ts: 't0' }),
  ...over,
});
const file = (name: string, cost: number, call: 'generate' | 'judge' = 'generate'): PendingExecutionCost => ({
  name,
  path: `d/e/spend-pending/${name}`,
  record: { execution_id: 'e', stage: 'plan', attempt: 1, call, cost_usd: cost, settled_at: 't' },
});
const damaged: PendingExecutionCost = { name: 'bad.json', path: 'd/e/spend-pending/bad.json', problem: 'not JSON' };

describe('foldExecutionLateCosts', () => {
  it('adds each new cost once, with a late_cost record, and remembers the files until they are gone', () => {
    const fold = foldExecutionLateCosts(
      start({ spent_usd: 0.1 }),
      [file('a.json', 0.2), file('b.json', 1, 'judge')],
      't1',
      config,
    );
    expect(fold.state).toMatchObject({
      spent_usd: 0.3 + 1,
      next_seq: 9,
      late_costs: { folded: ['a.json', 'b.json'], unreadable: [] },
    });
    expect(fold.records).toEqual([
      {
        kind: 'late_cost',
        stage: 'plan',
        attempt: 1,
        call: 'generate',
        costUsd: 0.2,
        path: 'd/e/spend-pending/a.json',
        seq: 7,
        ts: 't1',
      },
      {
        kind: 'late_cost',
        stage: 'plan',
        attempt: 1,
        call: 'judge',
        costUsd: 1,
        path: 'd/e/spend-pending/b.json',
        seq: 8,
        ts: 't1',
      },
    ]);
    expect(fold.state.outbox).toEqual(fold.records);
    expect(fold.remove.map((pending) => pending.name)).toEqual(['a.json', 'b.json']);

    // A crash before the removal: the next fold counts nothing again, and still removes both.
    const again = foldExecutionLateCosts(fold.state, [file('a.json', 0.2), file('b.json', 1, 'judge')], 't2', config);
    expect(again.state).toBe(fold.state);
    expect(again.remove.map((pending) => pending.name)).toEqual(['a.json', 'b.json']);

    const forgotten = forgetRemovedExecutionCosts(fold.state, fold.remove, 't3');
    expect(forgotten.late_costs).toBeUndefined();
    expect(forgotten).toMatchObject({ spent_usd: 1.3, outbox: [], updated_at: 't3', next_seq: 9 });
    expect(forgetRemovedExecutionCosts(forgotten, fold.remove, 't4')).toBe(forgotten);
  });

  it('reports a damaged file once and keeps it, never counting it', () => {
    const fold = foldExecutionLateCosts(start(), [damaged], 't1', config);
    expect(fold.records).toEqual([
      { kind: 'late_cost_unreadable', path: 'd/e/spend-pending/bad.json', reason: 'not JSON', seq: 7, ts: 't1' },
    ]);
    expect(fold.state).toMatchObject({ spent_usd: 0, late_costs: { folded: [], unreadable: ['bad.json'] } });
    expect(fold.remove).toEqual([]);
    expect(foldExecutionLateCosts(fold.state, [damaged], 't2', config).state).toBe(fold.state);
  });

  it('nothing pending and nothing remembered returns the state itself', () => {
    const state = start();
    expect(foldExecutionLateCosts(state, [], 't1', config)).toEqual({ state, records: [], remove: [] });
  });

  it('escalates on a spent budget when a generator call is next, before it is made', () => {
    const budget = { ...config, budgetUsd: 1 };
    const fold = foldExecutionLateCosts(start({ spent_usd: 0.5 }), [file('a.json', 0.5)], 't1', budget);
    expect(fold.state).toMatchObject({
      status: 'escalated',
      escalation: 'budget',
      reason: 'spent $1 of the $1 budget (late costs counted)',
    });
    expect(fold.records.map((record) => record.kind)).toEqual(['late_cost', 'finished']);
    // Under the budget it goes on.
    expect(foldExecutionLateCosts(start(), [file('a.json', 0.99)], 't1', budget).state.status).toBe('running');
  });

  it('leaves the budget to the critic when a critic call is next, and a finished execution finished', () => {
    const budget = { ...config, budgetUsd: 1 };
    const pending = { output: 'p', output_hash: 'h' };
    const judging = foldExecutionLateCosts(start({ phase: 'judge', pending }), [file('a.json', 5)], 't1', budget);
    expect(judging.state).toMatchObject({ status: 'running', spent_usd: 5 });
    const done = start({ status: 'completed', reason: 'all 2 stages accepted' });
    const after = foldExecutionLateCosts(done, [file('a.json', 5)], 't1', budget);
    expect(after.state).toMatchObject({ status: 'completed', escalation: null, spent_usd: 5 });
    expect(after.records.map((record) => record.kind)).toEqual(['late_cost']);
  });
});
