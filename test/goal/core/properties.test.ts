import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFeedbackView } from '../../../src/goal/contracts/feedback-view.js';
import { parseVerdictFile } from '../../../src/goal/contracts/verdict.js';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import type { CriterionFact, EvaluationFacts, StageStatus } from '../../../src/goal/core/facts.js';
import { SIGNAL_STATUS, STATUS_PRECEDENCE } from '../../../src/goal/core/precedence.js';
import { SDLC_STAGES } from '../../../src/pipeline/stage-presets.js';
import { FEEDBACK, goal } from './fixtures.js';

const STAGE_STATUSES: StageStatus[] = ['pending', 'passed', 'failed', 'blocked', 'needs_context', 'awaiting_approval'];
const PATHS = ['a.json', 'b.json', 'c.json', 'constructor'];
const IDS = ['a', 'b', 'c', 'd', 'e', 'constructor'];

// A raw criterion of any kind with the given id, naming rerun stages from the pipeline.
const rawCriterion = (id: string, stages: readonly string[]) => {
  const rerun_stages = fc.subarray([...stages]);
  return fc.oneof(
    fc.record({ id: fc.constant(id), kind: fc.constant('file_exists'), path: fc.constantFrom(...PATHS), rerun_stages }),
    fc.record({
      id: fc.constant(id),
      kind: fc.constant('command'),
      command: fc.constant('true'),
      expect_exit_code: fc.integer({ min: 0, max: 2 }),
      rerun_stages,
    }),
    fc.record({
      id: fc.constant(id),
      kind: fc.constant('metric_threshold'),
      source: fc.constantFrom('feedback', 'loop_state'),
      metric: fc.constantFrom('x', 'summary.critical_count', 'a.0'),
      operator: fc.constantFrom('>=', '>', '<=', '<', '==', '!='),
      value: fc.integer({ min: -2, max: 100 }),
      rerun_stages,
    }),
    fc.record({ id: fc.constant(id), kind: fc.constant('judge'), question: fc.constant('ok?'), rerun_stages }),
    fc.record({
      id: fc.constant(id),
      kind: fc.constant('json_schema'),
      path: fc.constantFrom(...PATHS),
      schema: fc.constant({}),
      rerun_stages,
    }),
  );
};

// A fact of any kind (sometimes not matching the criterion).
const anyFact: fc.Arbitrary<CriterionFact> = fc.oneof(
  fc.record({
    kind: fc.constant('file_exists' as const),
    path: fc.oneof(
      fc.constant({ state: 'missing' as const, path: 'x' }),
      fc.constant({ state: 'refused' as const, detail: 'out' }),
      fc.record({
        state: fc.constant('present' as const),
        path: fc.constant('x'),
        type: fc.constantFrom('file' as const, 'directory' as const, 'other' as const),
      }),
    ),
  }),
  fc.record({
    kind: fc.constant('command' as const),
    outcome: fc.oneof(
      fc.constant({ state: 'skipped' as const, detail: 'skip' }),
      fc.record({
        state: fc.constant('ran' as const),
        result: fc.record({
          exitCode: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
          timedOut: fc.boolean(),
          aborted: fc.boolean(),
          durationMs: fc.nat(),
          stdoutTail: fc.string(),
          stderrTail: fc.string(),
        }),
      }),
    ),
  }),
  fc.record({
    kind: fc.constant('metric_threshold' as const),
    source: fc.oneof(
      fc.constant({ state: 'missing' as const, detail: '' }),
      fc.record({ state: fc.constant('present' as const), document: fc.jsonValue() }),
    ),
  }),
  fc.constant({ kind: 'judge' as const }),
  fc.record({
    kind: fc.constant('json_schema' as const),
    outcome: fc.oneof(
      fc.constant({ state: 'unavailable' as const, detail: 'no' }),
      fc.record({
        state: fc.constant('checked' as const),
        valid: fc.boolean(),
        errors: fc.array(fc.string(), { maxLength: 4 }),
      }),
    ),
  }),
);

// An agent entry or junk.
const agentEntry = fc.oneof(
  fc.record(
    {
      criterion_id: fc.constantFrom(...IDS),
      result: fc.constantFrom('met', 'not_met', 'unknown'),
      evidence: fc.subarray(PATHS),
      iteration: fc.option(fc.nat(4), { nil: undefined }),
      recommendation: fc.constantFrom('retry', 'block'),
      recommended_rerun_stages: fc.subarray(['07-code', '99-x']),
    },
    { requiredKeys: ['criterion_id', 'result'] },
  ),
  fc.jsonValue(),
);

const feedbackArb = fc.oneof(
  fc.constant({ state: 'missing' as const }),
  fc.jsonValue().map(readFeedbackView),
  fc
    .record({
      summary: fc.record({ critical_count: fc.option(fc.integer({ min: -1, max: 4 }), { nil: null }) }),
      issues: fc.array(
        fc.record(
          {
            id: fc.string(),
            severity: fc.constantFrom('CRITICAL', 'WARNING', 'critical'),
            can_auto_remediate: fc.boolean(),
            remediation: fc.option(
              fc.record({
                agent_to_rerun: fc.option(fc.constantFrom('07-code', 'testing', 'agent.06-architecture', 'nobody'), {
                  nil: null,
                }),
              }),
              { nil: null },
            ),
          },
          { requiredKeys: ['severity'] },
        ),
        { maxLength: 4 },
      ),
      goal_evaluation: fc.record({
        iteration: fc.option(fc.nat(4), { nil: null }),
        criteria: fc.array(agentEntry, { maxLength: 5 }),
      }),
    })
    .map(readFeedbackView),
);

const verdictArb = fc.record(
  {
    criterion_id: fc.constantFrom(...IDS),
    verdict: fc.constantFrom('PASS', 'FAIL'),
    iteration: fc.nat(4),
    recommendation: fc.constantFrom('retry', 'block'),
    recommended_rerun_stages: fc.subarray(['07-code', '08-testing']),
  },
  { requiredKeys: ['verdict'] },
);

const factsArb: fc.Arbitrary<EvaluationFacts> = fc.subarray([...SDLC_STAGES]).chain((stages) =>
  fc
    .record({
      ids: fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 5 }),
      minScore: fc.integer({ min: 0, max: 100 }),
      statuses: fc.array(fc.constantFrom(...STAGE_STATUSES, undefined), {
        minLength: stages.length,
        maxLength: stages.length,
      }),
      iteration: fc.option(fc.nat(4), { nil: null }),
      feedback: feedbackArb,
      verdicts: fc.option(fc.array(fc.oneof(verdictArb, fc.jsonValue()), { maxLength: 4 }), { nil: null }),
      evidence: fc.dictionary(fc.constantFrom(...PATHS), fc.record({ ok: fc.boolean(), detail: fc.constant('d') })),
    })
    .chain((base) =>
      fc
        .record({
          criteria: fc.tuple(...base.ids.map((id) => rawCriterion(id, stages))),
          facts: fc.tuple(...base.ids.map(() => fc.option(anyFact, { nil: undefined }))),
        })
        .map(({ criteria, facts }): EvaluationFacts => {
          const parsed = parseVerdictFile(base.verdicts, { stages });
          const stageStatuses: Record<string, StageStatus> = {};
          stages.forEach((stage, index) => {
            const status = base.statuses[index];
            if (status !== undefined) stageStatuses[stage] = status;
          });
          const criterionFacts: Record<string, CriterionFact> = {};
          base.ids.forEach((id, index) => {
            const fact = facts[index];
            if (fact !== undefined)
              Object.defineProperty(criterionFacts, id, {
                value: fact,
                enumerable: true,
                writable: true,
                configurable: true,
              });
          });
          return {
            goal: goal(criteria, { min_score: base.minScore }),
            stages,
            feedbackStage: FEEDBACK,
            iteration: base.iteration,
            stageStatuses,
            criteria: criterionFacts,
            feedback: base.feedback,
            explicitVerdicts:
              base.verdicts === null
                ? { state: 'missing' }
                : { state: 'present', verdicts: parsed.verdicts, issues: parsed.issues },
            evidence: base.evidence,
          };
        }),
    ),
);

describe('evaluateGoal properties', () => {
  it('decides the status by the precedence table (ASK_USER > BLOCK > RETRY > PASS) over what it observed', () => {
    const HUMAN = new Set<StageStatus>(['needs_context', 'awaiting_approval']);
    fc.assert(
      fc.property(factsArb, (facts) => {
        const evaluation = evaluateGoal(facts);
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
        // Row by row, strongest first: what forces a status forces it whatever the weaker rows say ...
        if (judgePending || humanStage) expect(status).toBe('ASK_USER');
        if (blocking) expect(['ASK_USER', 'BLOCK']).toContain(status);
        if (notMet) expect(status).not.toBe('PASS');
        // ... and a status is only reached through its own row.
        if (status === 'ASK_USER')
          expect(judgePending || humanStage || evaluation.claims.rejected.length > 0).toBe(true);
        if (status === 'BLOCK') expect(blocking || unremediable).toBe(true);
        if (status === 'RETRY') expect(notMet && !judgePending && !humanStage && !blocking).toBe(true);
        if (status === 'PASS') expect(evaluation.signals).toEqual([]);
        // The winning status is the strongest one any raised signal maps to in SIGNAL_STATUS.
        const strongest = STATUS_PRECEDENCE.find(
          (candidate) =>
            candidate === 'PASS' || evaluation.signals.some((signal) => SIGNAL_STATUS[signal.kind] === candidate),
        );
        expect(status).toBe(strongest);
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
