import { describe, expect, it } from 'vitest';
import {
  type DecisionSignal,
  decideStatus,
  SIGNAL_STATUS,
  type SignalKind,
  STATUS_PRECEDENCE,
} from '../../../src/goal/core/precedence.js';

const signal = (kind: SignalKind, source: string = kind): DecisionSignal => ({
  kind,
  source,
  message: `${kind} raised`,
});

describe('precedence table', () => {
  it('orders ASK_USER > BLOCK > RETRY > PASS', () => {
    expect(STATUS_PRECEDENCE).toEqual(['ASK_USER', 'BLOCK', 'RETRY', 'PASS']);
  });

  it('maps each signal to the status the spec gives it', () => {
    expect(SIGNAL_STATUS).toEqual({
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
    });
  });
});

describe('decideStatus', () => {
  it('is PASS without signals', () => {
    expect(decideStatus([])).toEqual({ status: 'PASS', decisive: [] });
  });

  it('lets ASK_USER beat BLOCK and RETRY, whatever the order', () => {
    const signals = [signal('criterion_failed'), signal('stage_blocked'), signal('judge_pending')];
    expect(decideStatus(signals).status).toBe('ASK_USER');
    expect(decideStatus([...signals].reverse()).status).toBe('ASK_USER');
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
