import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { facts, feedback, fileExists, goal, metric, missingFile, present, statuses } from './fixtures.js';

describe('evaluateGoal: rerun stages', () => {
  it('unions failing and pending criteria, failed and pending stages and critical issues, in pipeline order', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([
          fileExists('a', 'a', ['11-feedback-loop']),
          metric('m', { rerun_stages: ['08-testing'] }),
          fileExists('ok', 'ok', ['03-documentation']),
        ]),
        criteria: {
          a: missingFile,
          m: { kind: 'metric_threshold', source: { state: 'present', document: {} } },
          ok: present(),
        },
        stageStatuses: { ...statuses('passed'), '07-code': 'failed' },
        feedback: feedback({
          summary: { critical_count: 1 },
          issues: [{ severity: 'CRITICAL', remediation: { agent_to_rerun: '06-architecture' } }],
        }),
      }),
    );
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.recommendedRerunStages).toEqual(['06-architecture', '07-code', '08-testing', '11-feedback-loop']);
  });

  it('is empty unless the status is RETRY', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([fileExists('a', 'a', ['07-code'])]),
        criteria: { a: missingFile },
        stageStatuses: { ...statuses('passed'), '03-documentation': 'blocked' },
      }),
    );
    expect(evaluation.status).toBe('BLOCK');
    expect(evaluation.recommendedRerunStages).toEqual([]);
  });

  it('reruns the feedback stage after any stage upstream of it, so its report is not stale', () => {
    const evaluation = evaluateGoal(
      facts({ goal: goal([fileExists('a', 'a', ['07-code'])]), criteria: { a: missingFile } }),
    );
    expect(evaluation.recommendedRerunStages).toEqual(['07-code', '11-feedback-loop']);
    const withoutFeedback = evaluateGoal(
      facts({
        goal: goal([fileExists('a', 'a', ['07-code'])]),
        criteria: { a: missingFile },
        stages: ['07-code'],
        stageStatuses: { '07-code': 'passed' },
      }),
    );
    expect(withoutFeedback.recommendedRerunStages).toEqual(['07-code']);
  });

  it('drops rerun stages outside the pipeline with an issue', () => {
    const unchecked = goal([fileExists('a', 'a', ['99-ghost', '07-code'])]);
    const evaluation = evaluateGoal(facts({ goal: unchecked, criteria: { a: missingFile } }));
    expect(evaluation.recommendedRerunStages).toEqual(['07-code', '11-feedback-loop']);
    expect(evaluation.issues).toContainEqual({
      code: 'unknown_stage',
      path: ['criteria', 0, 'rerun_stages', 0],
      message: expect.stringContaining('99-ghost'),
    });
  });
});
