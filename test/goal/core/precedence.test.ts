import { describe, expect, it } from 'vitest';
import {
  DECISION_PRECEDENCE,
  type DecisionSignal,
  decideStatus,
  type SignalKind,
} from '../../../src/goal/core/precedence.js';

const signal = (kind: SignalKind, source: string = kind): DecisionSignal => ({
  kind,
  source,
  message: `${kind} raised`,
});

describe('precedence table', () => {
  it('asks judges last by default: ASK_USER (a human stage, an agent stamp ahead) > BLOCK > RETRY > ASK_USER (a judge)', () => {
    expect(DECISION_PRECEDENCE.last.map((row) => row.status)).toEqual(['ASK_USER', 'BLOCK', 'RETRY', 'ASK_USER']);
    expect(DECISION_PRECEDENCE.last.at(-1)?.signals).toEqual(['judge_pending']);
    expect(DECISION_PRECEDENCE.last[0]?.signals).toEqual(['stage_awaiting_human', 'agent_stamp_ahead']);
  });

  it("keeps rstack-agents' order under askJudges 'first': a pending judge in the first row", () => {
    expect(DECISION_PRECEDENCE.first.map((row) => row.status)).toEqual(['ASK_USER', 'BLOCK', 'RETRY']);
    expect(DECISION_PRECEDENCE.first[0]?.signals).toContain('judge_pending');
  });

  it('gives every signal kind exactly one row, and the status the spec gives it', () => {
    const statusOf = (order: 'last' | 'first') =>
      Object.fromEntries(DECISION_PRECEDENCE[order].flatMap((row) => row.signals.map((kind) => [kind, row.status])));
    const expected = {
      judge_pending: 'ASK_USER',
      stage_awaiting_human: 'ASK_USER',
      agent_stamp_ahead: 'ASK_USER',
      stage_blocked: 'BLOCK',
      judge_block: 'BLOCK',
      path_refused: 'RETRY',
      unremediable_critical: 'BLOCK',
      metrics_unreadable: 'BLOCK',
      criterion_failed: 'RETRY',
      criterion_pending: 'RETRY',
      stage_failed: 'RETRY',
      stage_pending: 'RETRY',
      critical_issue: 'RETRY',
      feedback_unreadable: 'RETRY',
      score_below_min: 'RETRY',
    };
    for (const order of ['last', 'first'] as const) {
      const kinds = DECISION_PRECEDENCE[order].flatMap((row) => row.signals);
      expect(new Set(kinds).size).toBe(kinds.length);
      expect(statusOf(order)).toEqual(expected);
    }
  });
});

describe('decideStatus', () => {
  it('is PASS without signals', () => {
    expect(decideStatus([])).toEqual({ status: 'PASS', decisive: [] });
  });

  it('asks a pending judge only when nothing would retry or block, whatever the order of the signals', () => {
    const retry = [signal('criterion_failed'), signal('judge_pending')];
    expect(decideStatus(retry).status).toBe('RETRY');
    expect(decideStatus([...retry].reverse()).status).toBe('RETRY');
    expect(decideStatus([signal('judge_pending'), signal('stage_blocked')]).status).toBe('BLOCK');
    const judged = decideStatus([signal('judge_pending', 'design-review')]);
    expect(judged).toEqual({ status: 'ASK_USER', decisive: [signal('judge_pending', 'design-review')] });
  });

  it("lets a pending judge beat BLOCK and RETRY under askJudges 'first', whatever the order", () => {
    const signals = [signal('criterion_failed'), signal('stage_blocked'), signal('judge_pending')];
    expect(decideStatus(signals, 'first').status).toBe('ASK_USER');
    expect(decideStatus([...signals].reverse(), 'first').status).toBe('ASK_USER');
  });

  it('lets BLOCK beat RETRY', () => {
    expect(decideStatus([signal('critical_issue'), signal('unremediable_critical')]).status).toBe('BLOCK');
    expect(decideStatus([signal('stage_failed'), signal('judge_block')]).status).toBe('BLOCK');
  });

  it('returns the decisive signals in the given order', () => {
    const decision = decideStatus([
      signal('criterion_failed', 'a'),
      signal('stage_failed', 'b'),
      signal('score_below_min', 'c'),
    ]);
    expect(decision.status).toBe('RETRY');
    expect(decision.decisive.map((item) => item.source)).toEqual(['a', 'b', 'c']);
  });

  it('forces ASK_USER for an agent stamp ahead and a stage awaiting a human', () => {
    expect(decideStatus([signal('agent_stamp_ahead'), signal('stage_blocked')]).status).toBe('ASK_USER');
    expect(decideStatus([signal('stage_awaiting_human'), signal('judge_block')]).status).toBe('ASK_USER');
  });
});
