import { describe, expect, it } from 'vitest';
import { type BudgetState, type CheckedDecision, routeDecision } from '../../../src/critics/core/route.js';

const budget = (over: Partial<BudgetState> = {}): BudgetState => ({
  stage: 'code',
  retriesUsed: 0,
  retryBudget: 3,
  onBudgetSpent: 'accept_with_gaps',
  backtracks: 0,
  maxBacktracks: 3,
  spentUsd: 0,
  budgetUsd: undefined,
  lastStage: false,
  ...over,
});

const accept: CheckedDecision = { verdict: 'accept' };
const retry: CheckedDecision = { verdict: 'retry' };
const escalate: CheckedDecision = { verdict: 'escalate' };
const back: CheckedDecision = { verdict: 'route_back', to: 'plan' };
const invalid: CheckedDecision = { verdict: 'invalid', reason: 'invalid_decision', detail: 'bad' };
const threw: CheckedDecision = { verdict: 'invalid', reason: 'critic_failed', detail: 'threw' };

// decision × budget state × variant → action kind (and escalation reason).
const table: [string, CheckedDecision, Partial<BudgetState>, 'route_back' | 'veto', string][] = [
  ['accept, fresh', accept, {}, 'route_back', 'accept'],
  ['accept, veto', accept, {}, 'veto', 'accept'],
  ['accept, USD spent, more stages', accept, { spentUsd: 2, budgetUsd: 2 }, 'route_back', 'escalate:budget'],
  ['accept, USD spent, last stage', accept, { spentUsd: 2, budgetUsd: 2, lastStage: true }, 'route_back', 'accept'],
  ['accept, USD under budget', accept, { spentUsd: 1.99, budgetUsd: 2 }, 'route_back', 'accept'],
  ['retry, budget left', retry, { retriesUsed: 2 }, 'route_back', 'retry'],
  ['retry, budget spent → gaps', retry, { retriesUsed: 3 }, 'route_back', 'accept_with_gaps'],
  [
    'retry, budget spent → escalate',
    retry,
    { retriesUsed: 3, onBudgetSpent: 'escalate' },
    'veto',
    'escalate:retry_budget',
  ],
  ['retry, zero budget', retry, { retryBudget: 0 }, 'route_back', 'accept_with_gaps'],
  ['retry, USD spent', retry, { spentUsd: 5, budgetUsd: 1 }, 'route_back', 'escalate:budget'],
  [
    'gaps at last stage, USD spent',
    retry,
    { retriesUsed: 3, spentUsd: 5, budgetUsd: 1, lastStage: true },
    'route_back',
    'accept_with_gaps',
  ],
  ['route back, counter left', back, { backtracks: 2 }, 'route_back', 'route_back'],
  ['route back, counter spent', back, { backtracks: 3 }, 'route_back', 'escalate:spec_problem'],
  ['route back, maxBacktracks 0', back, { maxBacktracks: 0 }, 'route_back', 'escalate:spec_problem'],
  ['route back, veto → retry', back, { backtracks: 3 }, 'veto', 'retry'],
  ['route back, veto, retries spent', back, { retriesUsed: 3 }, 'veto', 'accept_with_gaps'],
  ['route back, USD spent', back, { spentUsd: 3, budgetUsd: 3 }, 'route_back', 'escalate:budget'],
  ['escalate', escalate, {}, 'route_back', 'escalate:critic_escalated'],
  ['escalate, veto', escalate, {}, 'veto', 'escalate:critic_escalated'],
  ['invalid', invalid, {}, 'route_back', 'escalate:invalid_decision'],
  ['critic threw', threw, { spentUsd: 9, budgetUsd: 1 }, 'veto', 'escalate:critic_failed'],
];

describe('routeDecision: decision × budget state × variant', () => {
  it.each(table)('%s', (_, decision, over, variant, expected) => {
    const { action } = routeDecision(decision, budget(over), variant);
    const kind = action.kind === 'escalate' ? `escalate:${action.reason}` : action.kind;
    expect(kind).toBe(expected);
  });

  it('routes back to the named stage and records a veto', () => {
    expect(routeDecision(back, budget(), 'route_back')).toEqual({
      action: { kind: 'route_back', to: 'plan' },
      vetoed: false,
    });
    expect(routeDecision(back, budget(), 'veto')).toEqual({ action: { kind: 'retry' }, vetoed: true });
  });

  it('says why: a spec problem, the spent budget, the invalid detail', () => {
    const spec = routeDecision(back, budget({ backtracks: 3 }), 'route_back').action;
    expect(spec).toMatchObject({ detail: expect.stringContaining('spec problem, not a routing problem') });
    expect(spec).toMatchObject({ detail: expect.stringContaining('route back 4') });
    const usd = routeDecision(retry, budget({ spentUsd: 2.5, budgetUsd: 2 }), 'route_back').action;
    expect(usd).toMatchObject({ detail: 'spent $2.5 of the $2 budget' });
    expect(routeDecision(invalid, budget(), 'route_back').action).toMatchObject({ detail: 'bad' });
    const spent = routeDecision(retry, budget({ retriesUsed: 3, onBudgetSpent: 'escalate' }), 'route_back').action;
    expect(spent).toMatchObject({ detail: expect.stringContaining('code retry budget (3)') });
  });
});
