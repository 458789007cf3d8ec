import fc from 'fast-check';
import { readFeedbackView } from '../../../src/goal/contracts/feedback-view.js';
import { parseVerdictFile } from '../../../src/goal/contracts/verdict.js';
import type { CriterionFact, EvaluationFacts, StageStatus } from '../../../src/goal/core/facts.js';
import { SDLC_STAGES } from '../../../src/pipeline/stage-presets.js';
import { anyFact, IDS, PATHS, rawCriterion } from './criterion-arbitraries.js';
import { FEEDBACK, goal } from './fixtures.js';

const STAGE_STATUSES: StageStatus[] = ['pending', 'passed', 'failed', 'blocked', 'needs_context', 'awaiting_approval'];

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

/** The facts of an evaluation: a goal over a subset of the SDLC stages, stage statuses, feedback, verdicts, evidence. */
export const factsArb: fc.Arbitrary<EvaluationFacts> = fc.subarray([...SDLC_STAGES]).chain((stages) =>
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
