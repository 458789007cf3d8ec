import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feedbackReportSchema } from '../../../src/review/contracts/feedback-report.js';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../../../src/review/core/contract-slots.js';
import { reviewPipeline } from '../../../src/review/core/review-pipeline.js';
import { asContracts, cleanRun, reviewMutated, TIMESTAMP } from '../fixtures.js';

// The review's report is valid, deterministic, and never a throw, whatever JSON the contracts hold.

describe('reviewPipeline: reading the run', () => {
  it('produces a report that validates against feedbackReportSchema and is deterministic', () => {
    const first = reviewMutated((run) => {
      run.code_report.contract_version = 2;
    });
    const second = reviewMutated((run) => {
      run.code_report.contract_version = 2;
    });
    expect(feedbackReportSchema.safeParse(first).success).toBe(true);
    expect(JSON.stringify(first)).toBe(JSON.stringify(second));
    expect(first).toMatchObject({
      contract_version: '1.1',
      timestamp: TIMESTAMP,
      pipeline_complete: true,
      remediation_plan_path: 'artifacts/stages/11-feedback-loop/REMEDIATION_PLAN.md',
    });
  });

  it('any JSON in any contract slot yields a valid report and never throws', () => {
    const slots = REVIEW_CONTRACT_SLOTS.map((slot) => slot.key);
    fc.assert(
      fc.property(
        fc.constantFrom(...slots),
        fc.jsonValue(),
        fc.dictionary(fc.constantFrom(...slots), fc.jsonValue(), { maxKeys: 4 }),
        (key, value, others) => {
          const documents: Partial<Record<ContractKey, unknown>> = { ...cleanRun(), ...others, [key]: value };
          const report = reviewPipeline(asContracts(documents), { timestamp: TIMESTAMP });
          expect(feedbackReportSchema.safeParse(report).success).toBe(true);
          expect(report.summary.overall_consistency_score).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary JSON that happens to look like each shape never throws either', () => {
    const arbitraryShape = fc.record({
      requirements: fc.array(
        fc.record({
          id: fc.string(),
          type: fc.constantFrom('functional', 'non_functional'),
          title: fc.string(),
          category: fc.constantFrom('security', 'compliance', 'x'),
        }),
      ),
      epics: fc.array(
        fc.record({
          user_stories: fc.array(
            fc.record({
              story_id: fc.string(),
              title: fc.string(),
              linked_requirements: fc.array(fc.string()),
              story_points: fc.nat(40),
              sprint: fc.oneof(fc.nat(5), fc.string(), fc.constant(null)),
              assignee: fc.constantFrom('a', 'b'),
              blocked_by: fc.array(fc.string()),
            }),
          ),
        }),
      ),
      test_cases: fc.array(
        fc.record({
          id: fc.string(),
          story_ids: fc.array(fc.string()),
          requirement_ids: fc.array(fc.string()),
          status: fc.constantFrom('passed', 'failed', 'skipped'),
        }),
      ),
    });
    fc.assert(
      fc.property(arbitraryShape, (shape) => {
        const report = reviewPipeline(
          asContracts({
            ...cleanRun(),
            requirement_spec: { requirements: shape.requirements },
            jira_tickets: { epics: shape.epics },
            test_report: { test_cases: shape.test_cases },
          }),
          { timestamp: TIMESTAMP },
        );
        expect(feedbackReportSchema.safeParse(report).success).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
