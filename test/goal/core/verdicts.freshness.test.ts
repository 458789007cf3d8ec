import { describe, expect, it } from 'vitest';
import { stampFreshness } from '../../../src/goal/core/claims.js';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { resolveVerdicts } from '../../../src/goal/core/verdicts.js';
import { agentReport, claimOf, criterion, judged, verdicts } from './fixtures.js';

describe('freshness', () => {
  it('fresh iff stamp >= iteration', () => {
    expect(stampFreshness(2, 2, 'explicit')).toEqual({ fresh: true });
    expect(stampFreshness(3, 2, 'explicit')).toEqual({ fresh: true });
    expect(stampFreshness(1, 2, 'explicit')).toMatchObject({ fresh: false, ahead: false });
  });

  it('a stale explicit stamp is rejected and the judge stays PENDING (ASK_USER)', () => {
    const evaluation = evaluateGoal(
      judged({ explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'PASS', iteration: 1 }) }),
    );
    expect(evaluation.criteria[0]?.status).toBe('PENDING');
    expect(evaluation.status).toBe('ASK_USER');
    expect(evaluation.claims.rejected[0]?.reason).toContain('older than the current iteration 2');
    expect(evaluation.criteria[0]?.detail).toContain('older than the current iteration 2');
  });

  it('a missing stamp is stale inside a loop', () => {
    const evaluation = evaluateGoal(
      judged({ explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'PASS' }) }),
    );
    expect(evaluation.criteria[0]?.status).toBe('PENDING');
    expect(evaluation.claims.rejected[0]?.reason).toContain('no iteration stamp');
  });

  it('an explicit stamp one ahead of the iteration is fresh', () => {
    expect(
      criterion(judged({ explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'PASS', iteration: 3 }) }))
        ?.status,
    ).toBe('PASS');
  });

  it('an explicit stamp more than one ahead is rejected with a reason, not fresh forever', () => {
    expect(stampFreshness(4, 2, 'explicit')).toMatchObject({ fresh: false, ahead: true });
    const evaluation = evaluateGoal(
      judged({ explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'PASS', iteration: 999 }) }),
    );
    expect(evaluation.criteria[0]?.status).toBe('PENDING');
    expect(evaluation.claims.rejected[0]?.reason).toContain('stamped 999, more than one iteration ahead');
    expect(evaluation.criteria[0]?.detail).toContain('at most 3');
  });

  it('an agent stamp ahead is rejected, says so, and forces ASK_USER even when an explicit verdict passes', () => {
    const input = judged({
      explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'PASS', iteration: 2 }),
      feedback: agentReport([claimOf('design', 'met', { iteration: 3 })], { iteration: 2 }),
    });
    const evaluation = evaluateGoal(input);
    expect(evaluation.criteria[0]?.status).toBe('PASS');
    expect(evaluation.status).toBe('ASK_USER');
    expect(evaluation.claims.rejected[0]?.reason).toContain('stamped 3, ahead of the current iteration 2');
    expect(evaluation.reason).toContain('ahead of iteration 2');
    expect(evaluation.signals.map((signal) => signal.kind)).toContain('agent_stamp_ahead');
  });

  it('an entry stamp overrides the section stamp', () => {
    const stale = judged({ feedback: agentReport([claimOf('design', 'met', { iteration: 1 })], { iteration: 2 }) });
    expect(criterion(stale)?.status).toBe('PENDING');
    const fresh = judged({ feedback: agentReport([claimOf('design', 'met', { iteration: 2 })], { iteration: 1 }) });
    expect(criterion(fresh)?.status).toBe('PASS');
    const fromSection = judged({ feedback: agentReport([claimOf('design', 'met')], { iteration: 2 }) });
    expect(criterion(fromSection)?.status).toBe('PASS');
  });
});

describe('outside a loop (iteration null)', () => {
  it('unstamped explicit verdicts count', () => {
    expect(
      criterion(judged({ iteration: null, explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'PASS' }) }))
        ?.status,
    ).toBe('PASS');
    expect(criterion(judged({ iteration: null, explicitVerdicts: verdicts({ verdict: 'FAIL' }) }))?.status).toBe(
      'FAIL',
    );
  });

  it('unstamped agent claims do not count; stamped ones do', () => {
    const unstamped = judged({ iteration: null, feedback: agentReport([claimOf('design', 'met')]) });
    expect(criterion(unstamped)?.status).toBe('PENDING');
    expect(resolveVerdicts(unstamped).rejected[0]?.reason).toContain('only explicit verdicts may be unstamped');
    expect(
      criterion(judged({ iteration: null, feedback: agentReport([claimOf('design', 'met')], { iteration: 4 }) }))
        ?.status,
    ).toBe('PASS');
  });

  it('a stamped explicit verdict outranks an unstamped one', () => {
    const input = judged({
      iteration: null,
      explicitVerdicts: verdicts([
        { criterion_id: 'design', verdict: 'FAIL', iteration: 1 },
        { criterion_id: 'design', verdict: 'PASS' },
      ]),
    });
    expect(criterion(input)?.status).toBe('FAIL');
  });
});
