import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OutputHistory, stampFreshness } from '../../../src/goal/core/claims.js';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
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
  missingFile,
  present,
  verdicts,
} from './fixtures.js';

// A verdict judges outputs, not iteration numbers: it stays fresh while the stages it judges have not run since.

const history = (stageRuns: Record<string, number>, goalSince = 0): OutputHistory => ({ stageRuns, goalSince });
const designPass = (iteration: number) => verdicts({ criterion_id: 'design', verdict: 'PASS', iteration });

describe('a verdict stamped before the current iteration', () => {
  it('stays fresh while none of the stages it judges has run since, and says why it was kept', () => {
    const facts = judged({
      iteration: 5,
      explicitVerdicts: designPass(3),
      history: history({ '06-architecture': 3, '11-feedback-loop': 2, '07-code': 5 }),
    });
    expect(criterion(facts)?.status).toBe('PASS');
    expect(evaluateGoal(facts).claims.consumed[0]?.reason).toBe(
      'Consumed the explicit verdict PASS for design (stamped 3; still fresh: none of 06-architecture, 11-feedback-loop has run since iteration 3).',
    );
  });

  it('is dropped once a stage it judges reran, naming the stage and the iteration', () => {
    const facts = judged({
      iteration: 5,
      explicitVerdicts: designPass(3),
      history: history({ '06-architecture': 4, '11-feedback-loop': 2 }),
    });
    expect(criterion(facts)?.status).toBe('PENDING');
    expect(evaluateGoal(facts).claims.rejected[0]?.reason).toBe(
      'Explicit verdict PASS not used: it is stamped 3, and 06-architecture reran in iteration 4, after this verdict.',
    );
  });

  it('is dropped when the goal changed after it', () => {
    const facts = judged({ iteration: 5, explicitVerdicts: designPass(3), history: history({}, 4) });
    expect(criterion(facts)?.status).toBe('PENDING');
    expect(evaluateGoal(facts).claims.rejected[0]?.reason).toContain(
      'older than iteration 4, the first evaluated under the current goal',
    );
  });

  it('keeps the per-iteration rule for a criterion without rerun_stages, and without a history', () => {
    const bare = goal([judge('design')]);
    expect(criterion(judged({ goal: bare, explicitVerdicts: designPass(1), history: history({}) }))?.status).toBe(
      'PENDING',
    );
    expect(criterion(judged({ explicitVerdicts: designPass(1) }))?.status).toBe('PENDING');
  });

  it('holds for agent claims too', () => {
    const feedback = agentReport([claimOf('design', 'met', { iteration: 3 })], { iteration: 3 });
    const kept = judged({ iteration: 5, feedback, history: history({ '07-code': 5 }) });
    expect(criterion(kept)?.status).toBe('PASS');
    expect(evaluateGoal(kept).claims.consumed[0]?.reason).toContain('still fresh: none of 06-architecture');
    const dropped = judged({ iteration: 5, feedback, history: history({ '11-feedback-loop': 5 }) });
    expect(criterion(dropped)?.status).toBe('PENDING');
    expect(evaluateGoal(dropped).claims.rejected[0]?.reason).toContain('11-feedback-loop reran in iteration 5');
  });

  it('is fresh exactly when it is stamped at or after the goal and after every run of what it judges (property)', () => {
    const stage = fc.constantFrom('a', 'b', 'c');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 1, max: 10 }),
        fc.uniqueArray(stage, { maxLength: 3 }),
        fc.dictionary(stage, fc.integer({ min: 0, max: 10 })),
        fc.integer({ min: 0, max: 10 }),
        (stamp, iteration, stages, stageRuns, goalSince) => {
          fc.pre(stamp < iteration);
          const freshness = stampFreshness(stamp, iteration, 'explicit', { stages, history: { stageRuns, goalSince } });
          const untouched = stages.every((name) => (stageRuns[name] ?? 0) <= stamp);
          expect(freshness.fresh).toBe(stages.length > 0 && stamp >= goalSince && untouched);
        },
      ),
    );
  });
});

describe('judges are asked last', () => {
  const withCheck = goal([fileExists('docs', 'docs.json', ['07-code']), judge('design', ARCH)]);

  it('retries the other stages while a judge waits, and names the judge that waits', () => {
    const evaluation = evaluateGoal(
      judged({ goal: withCheck, criteria: { docs: missingFile, design: JUDGE_FACT }, iteration: 1 }),
    );
    expect(evaluation.status).toBe('RETRY');
    // The waiting judge's stages are not rerun: nothing about them failed.
    expect(evaluation.recommendedRerunStages).toEqual(['07-code', '11-feedback-loop']);
    expect(evaluation.deferredJudges).toEqual([
      { criterionId: 'design', reason: expect.stringMatching(/^asked once nothing else is rerun: Criterion docs/) },
    ]);
    expect(evaluation.reason).toMatch(
      /; rerun 07-code, 11-feedback-loop\. Judge design is asked once nothing else is rerun\.$/,
    );
  });

  it('asks the judge once the rest passes, and first under askJudges first', () => {
    const rest = judged({ goal: withCheck, criteria: { docs: missingFile, design: JUDGE_FACT }, iteration: 1 });
    expect(evaluateGoal(rest, { askJudges: 'first' }).status).toBe('ASK_USER');
    expect(evaluateGoal(rest, { askJudges: 'first' }).deferredJudges).toEqual([]);
    const passing = evaluateGoal({ ...rest, criteria: { docs: present(), design: JUDGE_FACT } });
    expect(passing.status, passing.reason).toBe('ASK_USER');
  });

  it('retries on a critical finding before asking the judge', () => {
    const feedback = agentReport(
      [],
      {},
      {
        summary: { critical_count: 1 },
        issues: [{ id: 'X-1', severity: 'CRITICAL', remediation: { agent_to_rerun: 'architecture_agent' } }],
      },
    );
    const evaluation = evaluateGoal(judged({ iteration: 1, feedback }));
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.recommendedRerunStages).toEqual(['06-architecture', '11-feedback-loop']);
    expect(evaluation.deferredJudges.map((judge_) => judge_.criterionId)).toEqual(['design']);
  });
});
