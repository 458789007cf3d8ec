import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { resolveVerdicts } from '../../../src/goal/core/verdicts.js';
import { ARCH, agentReport, claimOf, criterion, judged, verdicts } from './fixtures.js';

describe('rerun stages', () => {
  it('explicit recommended_rerun_stages replace the criterion rerun_stages', () => {
    const input = judged({
      explicitVerdicts: verdicts({
        criterion_id: 'design',
        verdict: 'FAIL',
        iteration: 2,
        recommended_rerun_stages: ['07-code'],
      }),
    });
    expect(criterion(input)?.rerunStages).toEqual(['07-code']);
    expect(evaluateGoal(input).recommendedRerunStages).toEqual(['07-code', '11-feedback-loop']);
  });

  it('an explicit empty list replaces the criterion rerun_stages too; an absent one keeps them', () => {
    const emptied = judged({
      explicitVerdicts: verdicts({
        criterion_id: 'design',
        verdict: 'FAIL',
        iteration: 2,
        recommended_rerun_stages: [],
      }),
    });
    expect(criterion(emptied)?.rerunStages).toEqual([]);
    const absent = judged({ explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'FAIL', iteration: 2 }) });
    expect(criterion(absent)?.rerunStages).toEqual(ARCH);
  });

  it('agent recommended_rerun_stages are added to them', () => {
    const input = judged({
      feedback: agentReport([claimOf('design', 'not_met', { recommended_rerun_stages: ['07-code'] })], {
        iteration: 2,
      }),
    });
    expect(criterion(input)?.rerunStages).toEqual(['06-architecture', '11-feedback-loop', '07-code']);
    expect(evaluateGoal(input).recommendedRerunStages).toEqual(['06-architecture', '07-code', '11-feedback-loop']);
  });

  it('agent stages outside the pipeline are dropped with a rejected-claim note; the claim is still consumed', () => {
    const input = judged({
      feedback: agentReport([claimOf('design', 'not_met', { recommended_rerun_stages: ['07-code', '99-nowhere'] })], {
        iteration: 2,
      }),
    });
    const resolution = resolveVerdicts(input);
    expect(resolution.consumed).toHaveLength(1);
    expect(resolution.rejected[0]?.reason).toContain('99-nowhere');
    expect(criterion(input)?.rerunStages).not.toContain('99-nowhere');
  });

  it('an explicit verdict naming a stage outside the pipeline is ignored', () => {
    const parsed = verdicts({
      criterion_id: 'design',
      verdict: 'PASS',
      iteration: 2,
      recommended_rerun_stages: ['99-nowhere'],
    });
    const evaluation = evaluateGoal(judged({ explicitVerdicts: parsed }));
    expect(evaluation.criteria[0]?.status).toBe('PENDING');
    expect(
      evaluation.issues.some(
        (issue) => issue.code === 'unknown_stage' && issue.message.startsWith('goal-verdict.json: '),
      ),
    ).toBe(true);
    const unparsed = judged({
      explicitVerdicts: {
        state: 'present',
        verdicts: [{ criterion_id: 'design', verdict: 'PASS', iteration: 2, recommended_rerun_stages: ['99-nowhere'] }],
        issues: [],
      },
    });
    expect(resolveVerdicts(unparsed).rejected[0]?.reason).toContain('outside the pipeline');
  });
});

describe('block recommendations', () => {
  it('an explicit FAIL with recommendation block is BLOCK', () => {
    const evaluation = evaluateGoal(
      judged({
        explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'FAIL', iteration: 2, recommendation: 'block' }),
      }),
    );
    expect(evaluation.status).toBe('BLOCK');
    expect(evaluation.recommendedRerunStages).toEqual([]);
  });

  it('an agent not_met with recommendation block is BLOCK', () => {
    expect(
      evaluateGoal(
        judged({
          feedback: agentReport([claimOf('design', 'not_met', { recommendation: 'block' })], { iteration: 2 }),
        }),
      ).status,
    ).toBe('BLOCK');
  });

  it('block on a PASS is just a PASS; a plain FAIL is RETRY', () => {
    expect(
      evaluateGoal(
        judged({
          explicitVerdicts: verdicts({
            criterion_id: 'design',
            verdict: 'PASS',
            iteration: 2,
            recommendation: 'block',
          }),
        }),
      ).status,
    ).toBe('PASS');
    expect(
      evaluateGoal(judged({ explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'FAIL', iteration: 2 }) }))
        .status,
    ).toBe('RETRY');
  });

  it('the summary names a block recommendation on a FAIL only, for an explicit verdict and an agent claim', () => {
    const explicit = (verdict: 'PASS' | 'FAIL', recommendation?: 'block') =>
      criterion(
        judged({
          explicitVerdicts: verdicts({
            criterion_id: 'design',
            verdict,
            iteration: 2,
            ...(recommendation === undefined ? {} : { recommendation }),
          }),
        }),
      )?.summary;
    expect(explicit('FAIL', 'block')).toBe('explicit verdict FAIL, recommendation block');
    expect(explicit('PASS', 'block')).toBe('explicit verdict PASS');
    expect(explicit('FAIL')).toBe('explicit verdict FAIL');
    const agent = (result: 'met' | 'not_met', recommendation?: 'block') =>
      criterion(
        judged({
          feedback: agentReport([claimOf('design', result, recommendation === undefined ? {} : { recommendation })], {
            iteration: 2,
          }),
        }),
      )?.summary;
    expect(agent('not_met', 'block')).toBe('agent claim not_met, recommendation block');
    expect(agent('met', 'block')).toBe('agent claim met');
    expect(agent('not_met')).toBe('agent claim not_met');
  });
});
