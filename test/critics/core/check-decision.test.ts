import { describe, expect, it } from 'vitest';
import { checkCriticReply } from '../../../src/critics/core/check-decision.js';

const STAGES = ['plan', 'code', 'test'];
const check = (value: unknown, variant: 'route_back' | 'veto' = 'route_back', index = 1) =>
  checkCriticReply({ ok: true, value }, STAGES, index, variant);

describe('checkCriticReply', () => {
  it('passes the four decisions through, issues defaulting to none', () => {
    expect(check({ decision: 'accept' })).toEqual({
      parsed: { decision: 'accept', issues: [] },
      checked: { verdict: 'accept' },
    });
    expect(check({ decision: 'retry', issues: [{ issue: 'x' }] }).checked).toEqual({ verdict: 'retry' });
    expect(check({ decision: 'escalate' }).checked).toEqual({ verdict: 'escalate' });
    expect(check({ decision: 'route_back', routeTo: 'plan' }).checked).toEqual({ verdict: 'route_back', to: 'plan' });
  });

  it('a throw is critic_failed', () => {
    expect(checkCriticReply({ ok: false, error: 'boom' }, STAGES, 1, 'route_back').checked).toEqual({
      verdict: 'invalid',
      reason: 'critic_failed',
      detail: 'the code critic threw: boom',
    });
  });

  it('a call past its time limit is critic_failed, said as a timeout', () => {
    const reply = { ok: false, error: 'timed out after 5000 ms', timedOut: true } as const;
    expect(checkCriticReply(reply, STAGES, 1, 'route_back').checked).toEqual({
      verdict: 'invalid',
      reason: 'critic_failed',
      detail: 'the code critic timed out after 5000 ms',
    });
  });

  it.each([
    [null, 'malformed decision'],
    [{ decision: 'maybe' }, 'decision'],
    [{ decision: 'accept', issues: [{}] }, 'issues[0].issue'],
    [{ decision: 'accept', confidence: 2 }, 'confidence'],
    [{ decision: 'route_back' }, 'without naming a stage'],
    [{ decision: 'route_back', routeTo: 'deploy' }, 'an unknown stage'],
    [{ decision: 'route_back', routeTo: 'test' }, 'a later stage'],
    [{ decision: 'route_back', routeTo: 'code' }, 'its own stage'],
  ])('%j is invalid_decision (%s)', (value, words) => {
    const { checked } = check(value);
    expect(checked).toMatchObject({ verdict: 'invalid', reason: 'invalid_decision' });
    expect(checked.verdict === 'invalid' && checked.detail).toContain(words);
  });

  it('the veto variant does not check routeTo (the route back becomes a retry)', () => {
    expect(check({ decision: 'route_back', routeTo: 'nowhere' }, 'veto').checked).toEqual({
      verdict: 'route_back',
      to: 'code',
    });
  });
});
