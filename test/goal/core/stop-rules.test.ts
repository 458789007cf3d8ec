import { describe, expect, it } from 'vitest';
import { decideLoop } from '../../../src/goal/core/decide.js';
import { type LoopFacts, STOP_RULES, type StopRuleId } from '../../../src/goal/core/stop-rules.js';

// The one ordered list of stops: with every condition true, each rule wins over every rule after it.

// Facts under which the given rules (and only they) apply.
function factsWhere(rules: ReadonlySet<StopRuleId>): LoopFacts {
  const retry = ['max_iterations', 'same_fingerprint', 'nothing_to_rerun'].some((id) => rules.has(id as StopRuleId));
  const status = rules.has('goal_met')
    ? 'PASS'
    : rules.has('ask_user')
      ? 'ASK_USER'
      : rules.has('blocked')
        ? 'BLOCK'
        : rules.has('evaluation_error')
          ? 'ERROR'
          : retry
            ? 'RETRY'
            : undefined;
  return {
    aborted: rules.has('aborted'),
    abortedAt: 'before stage x',
    spentUsd: rules.has('budget') ? 10 : 1,
    budgetUsd: 5,
    goal: {
      changed: rules.has('goal_changed'),
      accepted: false,
      valid: !rules.has('invalid_goal'),
      reason: 'bad goal',
    },
    ...(status === undefined
      ? {}
      : {
          evaluation: {
            status,
            reason: `it is ${status}`,
            recommendedRerunStages: rules.has('nothing_to_rerun') ? [] : ['b'],
          },
        }),
    iterationsInSession: rules.has('max_iterations') ? 3 : 1,
    maxIterations: 3,
    fingerprint: 'f',
    previousFingerprint: rules.has('same_fingerprint') ? 'f' : 'e',
  };
}

describe('STOP_RULES', () => {
  const ids = STOP_RULES.map((rule) => rule.id);

  it('is the documented order: abort, budget, goal, evaluation status, then the RETRY brakes', () => {
    expect(ids).toEqual([
      'aborted',
      'budget',
      'goal_changed',
      'invalid_goal',
      'goal_met',
      'ask_user',
      'blocked',
      'evaluation_error',
      'max_iterations',
      'same_fingerprint',
      'nothing_to_rerun',
    ]);
  });

  it.each(ids.map((id, index) => [id, index] as const))('%s wins over every rule after it', (id, index) => {
    // The status rules are exclusive (one evaluation status at a time): keep only the first of them.
    const statusRules = new Set<StopRuleId>(['goal_met', 'ask_user', 'blocked', 'evaluation_error']);
    const later = ids.slice(index).filter((rule, at) => at === 0 || !statusRules.has(rule) || !statusRules.has(id));
    const decision = decideLoop(factsWhere(new Set(later)));
    expect(decision).toMatchObject({ kind: 'stop', rule: id });
  });

  it('no rule applying: a RETRY evaluation retries its stages, a checkpoint without one goes on', () => {
    expect(decideLoop(factsWhere(new Set(['max_iterations'])))).toMatchObject({ rule: 'max_iterations' });
    const retry = factsWhere(new Set());
    expect(
      decideLoop({ ...retry, evaluation: { status: 'RETRY', reason: 'r', recommendedRerunStages: ['b'] } }),
    ).toEqual({
      kind: 'retry',
      stages: ['b'],
      reason: 'r',
    });
    expect(decideLoop(retry)).toEqual({ kind: 'continue' });
  });

  it('only the abort and an unaccepted goal change leave the session resumable', () => {
    expect(STOP_RULES.filter((rule) => rule.resumable).map((rule) => rule.id)).toEqual(['aborted', 'goal_changed']);
  });
});
