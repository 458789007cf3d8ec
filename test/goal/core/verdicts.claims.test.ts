import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { resolveVerdicts } from '../../../src/goal/core/verdicts.js';
import {
  ARCH,
  agentReport,
  claimOf,
  criterion,
  fileExists,
  goal,
  JUDGE_FACT,
  judge,
  judged,
  present,
  twoJudges,
  verdicts,
} from './fixtures.js';

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
