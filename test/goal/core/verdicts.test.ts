import { describe, expect, it } from 'vitest';
import { stampFreshness } from '../../../src/goal/core/claims.js';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import type { EvaluationFacts } from '../../../src/goal/core/facts.js';
import { resolveVerdicts } from '../../../src/goal/core/verdicts.js';
import {
  agentReport,
  claimOf,
  evidence,
  facts,
  fileExists,
  goal,
  JUDGE_FACT,
  judge,
  present,
  verdicts,
} from './fixtures.js';

const ARCH = ['06-architecture', '11-feedback-loop'];
const oneJudge = goal([judge('design', ARCH)]);
const twoJudges = goal([judge('design', ARCH), judge('security', ['07-code'])]);
const GOOD = evidence(['artifacts/a.json', 'artifacts/b.json'], ['artifacts/bad.json']);

// Facts for a judge goal inside a loop at iteration 2 (unless overridden).
function judged(overrides: Partial<EvaluationFacts> = {}): EvaluationFacts {
  return facts({
    goal: oneJudge,
    iteration: 2,
    criteria: { design: JUDGE_FACT, security: JUDGE_FACT },
    evidence: GOOD,
    ...overrides,
  });
}
const criterion = (facts_: EvaluationFacts, id = 'design') =>
  evaluateGoal(facts_).criteria.find((item) => item.id === id);

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

describe('agent evidence gate', () => {
  const withClaim = (extra: Record<string, unknown>) =>
    judged({ feedback: agentReport([claimOf('design', 'met', extra)], { iteration: 2 }) });

  it('consumes a claim whose every evidence path is verified', () => {
    expect(criterion(withClaim({ evidence: ['artifacts/a.json', 'artifacts/b.json'] }))?.status).toBe('PASS');
  });

  it('rejects a claim with no evidence', () => {
    const input = withClaim({ evidence: [] });
    expect(criterion(input)?.status).toBe('PENDING');
    expect(resolveVerdicts(input).rejected[0]?.reason).toContain('lists no evidence');
  });

  it('rejects a claim when one path among good ones is not ok', () => {
    const input = withClaim({ evidence: ['artifacts/a.json', 'artifacts/bad.json', 'artifacts/b.json'] });
    expect(criterion(input)?.status).toBe('PENDING');
    expect(resolveVerdicts(input).rejected[0]?.reason).toContain('artifacts/bad.json (missing)');
  });

  it('treats a path absent from the evidence map as not ok', () => {
    const input = withClaim({ evidence: ['artifacts/a.json', 'never-checked.json'] });
    expect(criterion(input)?.status).toBe('PENDING');
    expect(resolveVerdicts(input).rejected[0]?.reason).toContain('never-checked.json (not checked)');
  });

  it('rejects an unknown result', () => {
    const input = judged({ feedback: agentReport([claimOf('design', 'unknown')], { iteration: 2 }) });
    expect(criterion(input)?.status).toBe('PENDING');
    expect(resolveVerdicts(input).rejected[0]?.reason).toContain('"unknown"');
  });
});

describe('agent duplicates', () => {
  it('rejects every conflicting duplicate', () => {
    const input = judged({
      feedback: agentReport([claimOf('design', 'met'), claimOf('design', 'not_met')], { iteration: 2 }),
    });
    expect(criterion(input)?.status).toBe('PENDING');
    const rejected = resolveVerdicts(input).rejected;
    expect(rejected).toHaveLength(2);
    expect(rejected.every((record) => record.reason.includes('conflicting duplicate'))).toBe(true);
  });

  it('treats a differing recommendation as a conflict', () => {
    const input = judged({
      feedback: agentReport([claimOf('design', 'not_met'), claimOf('design', 'not_met', { recommendation: 'block' })], {
        iteration: 2,
      }),
    });
    expect(criterion(input)?.status).toBe('PENDING');
  });

  it('keeps one of identical duplicates', () => {
    const input = judged({
      feedback: agentReport([claimOf('design', 'met'), claimOf('design', 'met')], { iteration: 2 }),
    });
    expect(criterion(input)?.status).toBe('PASS');
    const resolution = resolveVerdicts(input);
    expect(resolution.consumed).toEqual([expect.objectContaining({ source: 'agent', index: 0 })]);
    expect(resolution.rejected).toEqual([
      expect.objectContaining({ index: 1, reason: expect.stringContaining('duplicate of entry #0') }),
    ]);
  });
});

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

describe('claims that do not fit the goal', () => {
  const mixed = goal([judge('design', ARCH), fileExists('doc')]);

  it('rejects explicit verdicts for unknown or non-judge criteria', () => {
    const input = judged({
      goal: mixed,
      criteria: { design: JUDGE_FACT, doc: present() },
      explicitVerdicts: verdicts([
        { criterion_id: 'doc', verdict: 'PASS', iteration: 2 },
        { criterion_id: 'ghost', verdict: 'PASS', iteration: 2 },
      ]),
    });
    const reasons = resolveVerdicts(input).rejected.map((record) => record.reason);
    expect(reasons[0]).toContain('doc is a file_exists criterion');
    expect(reasons[1]).toContain('no criterion "ghost"');
  });

  it('rejects agent claims for non-judge criteria', () => {
    const input = judged({
      goal: mixed,
      criteria: { design: JUDGE_FACT, doc: present() },
      feedback: agentReport([claimOf('doc', 'met')], { iteration: 2 }),
    });
    expect(resolveVerdicts(input).rejected[0]?.reason).toContain('agent claims apply only to judge criteria');
  });

  it('rejects a malformed agent entry, keeps the valid ones, and reports the issue with its path', () => {
    const input = judged({
      feedback: agentReport([{ criterion_id: 'design', result: 'maybe' }, claimOf('design', 'met')], { iteration: 2 }),
    });
    const evaluation = evaluateGoal(input);
    expect(evaluation.criteria[0]?.status).toBe('PASS');
    expect(evaluation.claims.rejected[0]).toMatchObject({
      criterionId: 'design',
      index: 0,
      reason: expect.stringContaining('malformed'),
    });
    expect(evaluation.issues[0]?.path).toEqual(['goal_evaluation', 'criteria', 0, 'result']);
  });

  it('records every consumed and rejected claim with a reason', () => {
    const input = judged({
      goal: twoJudges,
      explicitVerdicts: verdicts([
        { criterion_id: 'design', verdict: 'PASS', iteration: 2 },
        { criterion_id: 'security', verdict: 'PASS', iteration: 1 },
      ]),
      feedback: agentReport([claimOf('security', 'not_met')], { iteration: 2 }),
    });
    const { claims } = evaluateGoal(input);
    expect(claims.consumed.map((record) => [record.source, record.criterionId])).toEqual([
      ['explicit', 'design'],
      ['agent', 'security'],
    ]);
    expect(claims.rejected.map((record) => [record.source, record.criterionId])).toEqual([['explicit', 'security']]);
    expect([...claims.consumed, ...claims.rejected].every((record) => record.reason.length > 10)).toBe(true);
  });
});
