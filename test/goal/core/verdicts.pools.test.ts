import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { resolveVerdicts } from '../../../src/goal/core/verdicts.js';
import { agentReport, claimOf, criterion, judged, twoJudges, verdicts } from './fixtures.js';

describe('explicit pool before agent pool', () => {
  it('an id-matched explicit verdict beats a valid agent claim', () => {
    const input = judged({
      explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'FAIL', iteration: 2 }),
      feedback: agentReport([claimOf('design', 'met')], { iteration: 2 }),
    });
    expect(criterion(input)).toMatchObject({ status: 'FAIL', verdictSource: 'explicit' });
    const resolution = resolveVerdicts(input);
    expect(resolution.rejected.find((record) => record.source === 'agent')?.reason).toContain(
      'an explicit verdict decides design',
    );
  });

  it('the id-less shorthand beats an id-matched agent claim', () => {
    const input = judged({
      explicitVerdicts: verdicts({ verdict: 'PASS', iteration: 2 }),
      feedback: agentReport([claimOf('design', 'not_met')], { iteration: 2 }),
    });
    expect(criterion(input)).toMatchObject({ status: 'PASS', verdictSource: 'explicit' });
    expect(resolveVerdicts(input).consumed).toEqual([
      expect.objectContaining({ source: 'explicit', criterionId: null, index: 0 }),
    ]);
  });

  it('the agent pool decides when the explicit pool yields nothing (all stale)', () => {
    const input = judged({
      explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'FAIL', iteration: 1 }),
      feedback: agentReport([claimOf('design', 'met')], { iteration: 2 }),
    });
    expect(criterion(input)).toMatchObject({ status: 'PASS', verdictSource: 'agent' });
  });
});

describe('id-less shorthand', () => {
  it('applies when the goal has exactly one judge criterion', () => {
    const evaluation = evaluateGoal(judged({ explicitVerdicts: verdicts({ verdict: 'PASS', iteration: 2 }) }));
    expect(evaluation.criteria[0]?.status).toBe('PASS');
    expect(evaluation.status).toBe('PASS');
  });

  it('is a rejected claim with a reason when the goal has two judge criteria', () => {
    const input = judged({ goal: twoJudges, explicitVerdicts: verdicts({ verdict: 'PASS', iteration: 2 }) });
    const evaluation = evaluateGoal(input);
    expect(evaluation.criteria.map((item) => item.status)).toEqual(['PENDING', 'PENDING']);
    expect(evaluation.status).toBe('ASK_USER');
    expect(evaluation.claims.rejected).toEqual([
      expect.objectContaining({
        source: 'explicit',
        criterionId: null,
        reason: expect.stringContaining('exactly one judge criterion (it has 2)'),
      }),
    ]);
  });

  it('gives way to an id-matched verdict for the same criterion', () => {
    const input = judged({
      explicitVerdicts: verdicts([
        { criterion_id: 'design', verdict: 'FAIL', iteration: 2 },
        { verdict: 'PASS', iteration: 3 },
      ]),
    });
    expect(criterion(input)?.status).toBe('FAIL');
    expect(resolveVerdicts(input).rejected[0]?.reason).toContain('takes precedence over the id-less shorthand');
  });
});

describe('several explicit verdicts for one criterion', () => {
  it('the highest stamp wins', () => {
    const input = judged({
      explicitVerdicts: verdicts([
        { criterion_id: 'design', verdict: 'PASS', iteration: 3 },
        { criterion_id: 'design', verdict: 'FAIL', iteration: 2 },
      ]),
    });
    expect(criterion(input)?.status).toBe('PASS');
    expect(resolveVerdicts(input).rejected[0]).toMatchObject({
      index: 1,
      reason: expect.stringContaining('superseded by verdict #0'),
    });
  });

  it('ties go to the last in file order', () => {
    const input = judged({
      explicitVerdicts: verdicts([
        { criterion_id: 'design', verdict: 'PASS', iteration: 2 },
        { criterion_id: 'design', verdict: 'FAIL', iteration: 2 },
      ]),
    });
    expect(criterion(input)?.status).toBe('FAIL');
  });
});
