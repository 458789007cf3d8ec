import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import type { StageStatus } from '../../../src/goal/core/facts.js';
import { type AskJudges, DECISION_PRECEDENCE } from '../../../src/goal/core/precedence.js';
import { factsArb } from './facts-arbitrary.js';

describe('evaluateGoal properties', () => {
  it('decides the status by the precedence table over what it observed, in either order of asking judges', () => {
    const HUMAN = new Set<StageStatus>(['needs_context', 'awaiting_approval']);
    fc.assert(
      fc.property(factsArb, fc.constantFrom<AskJudges>('last', 'first'), (facts, askJudges) => {
        const evaluation = evaluateGoal(facts, { askJudges });
        const { status, criteria } = evaluation;
        const stageStatus = (stage: string): StageStatus =>
          (Object.hasOwn(facts.stageStatuses, stage) ? facts.stageStatuses[stage] : undefined) ?? 'pending';
        const judgePending = criteria.some((c) => c.kind === 'judge' && c.status === 'PENDING');
        const humanStage = facts.stages.some((stage) => HUMAN.has(stageStatus(stage)));
        const blocking =
          facts.stages.some((stage) => stageStatus(stage) === 'blocked') ||
          criteria.some((c) => c.kind === 'judge' && c.status === 'FAIL' && c.recommendation === 'block');
        const unremediable = evaluation.builtins.some((b) => b.id === 'feedback:criticals' && b.status === 'FAIL');
        const notMet =
          [...criteria, ...evaluation.builtins].some((check) => check.status !== 'PASS') ||
          evaluation.score < evaluation.minScore;
        const first = askJudges === 'first';
        // Row by row, strongest first: what forces a status forces it whatever the weaker rows say ...
        if (humanStage || (first && judgePending)) expect(status).toBe('ASK_USER');
        if (blocking) expect(['ASK_USER', 'BLOCK']).toContain(status);
        if (notMet) expect(status).not.toBe('PASS');
        // ... and a status is only reached through its own row.
        if (status === 'ASK_USER')
          expect(judgePending || humanStage || evaluation.claims.rejected.length > 0).toBe(true);
        if (status === 'BLOCK') expect(blocking || unremediable).toBe(true);
        if (status === 'RETRY') expect(notMet && !humanStage && !blocking && !(first && judgePending)).toBe(true);
        if (status === 'PASS') expect(evaluation.signals).toEqual([]);
        // A judge asked last waits while anything else decides, and says so.
        const waiting = criteria.filter((c) => c.kind === 'judge' && c.status === 'PENDING').map((c) => c.id);
        const judgesAsked = evaluation.signals.every((signal) => signal.kind === 'judge_pending');
        if (!first && status === 'RETRY') expect(evaluation.deferredJudges.map((j) => j.criterionId)).toEqual(waiting);
        if (judgesAsked) expect(evaluation.deferredJudges).toEqual([]);
        // The winning status is the first row of the table any raised signal belongs to.
        const strongest = DECISION_PRECEDENCE[askJudges].find((row) =>
          evaluation.signals.some((signal) => row.signals.includes(signal.kind)),
        );
        expect(status).toBe(strongest?.status ?? 'PASS');
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the score in [0, 100] with one decimal', () => {
    fc.assert(
      fc.property(factsArb, (facts) => {
        const { score } = evaluateGoal(facts);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
        expect(Math.round(score * 10) / 10).toBe(score);
      }),
      { numRuns: 300 },
    );
  });

  it('recommends a subset of the stages, in pipeline order, only on RETRY', () => {
    fc.assert(
      fc.property(factsArb, (facts) => {
        const evaluation = evaluateGoal(facts);
        const positions = evaluation.recommendedRerunStages.map((stage) => facts.stages.indexOf(stage));
        expect(positions.every((position) => position >= 0)).toBe(true);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        expect(new Set(positions).size).toBe(positions.length);
        if (evaluation.status !== 'RETRY') expect(evaluation.recommendedRerunStages).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('is PASS exactly when nothing signals otherwise, and then scores 100', () => {
    fc.assert(
      fc.property(factsArb, (facts) => {
        const evaluation = evaluateGoal(facts);
        expect(evaluation.status === 'PASS').toBe(evaluation.signals.length === 0);
        if (evaluation.status === 'PASS') expect(evaluation.score).toBe(100);
        expect(evaluation.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
