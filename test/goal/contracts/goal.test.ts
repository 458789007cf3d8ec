import { describe, expect, it } from 'vitest';
import { parseGoalStructure as parseGoal } from '../../../src/goal/contracts/parse-goal.js';

const STAGES = ['03-documentation', '06-architecture', '11-feedback-loop'];

describe('parseGoal', () => {
  it('accepts the example with defaults applied', () => {
    const result = parseGoal(
      {
        schema_version: 1,
        goal_id: 'docs-sweep',
        criteria: [
          {
            id: 'docs-artifact',
            kind: 'file_exists',
            run_relative: true,
            path: 'artifacts/stages/03-documentation/documentation.json',
            rerun_stages: ['03-documentation'],
          },
          {
            id: 'docs-lint',
            kind: 'command',
            command: 'npm run docs:check',
            timeout_ms: 180000,
            rerun_stages: ['03-documentation'],
          },
          {
            id: 'no-criticals',
            kind: 'metric_threshold',
            source: 'feedback',
            metric: 'summary.critical_count',
            operator: '==',
            value: 0,
            rerun_stages: ['11-feedback-loop'],
          },
          {
            id: 'design-review',
            kind: 'judge',
            question: 'ok?',
            rerun_stages: ['06-architecture', '11-feedback-loop'],
          },
          {
            id: 'api-shape',
            kind: 'json_schema',
            path: 'artifacts/stages/06-architecture/system_design.json',
            run_relative: true,
            schema: { type: 'object' },
          },
        ],
      },
      { stages: STAGES },
    );
    expect(result.success).toBe(true);
    if (result.success) expect(result.data.criteria[1]).toMatchObject({ expect_exit_code: 0, timeout_ms: 180000 });
  });

  it('lists schema issues AND duplicate ids and unknown stages together', () => {
    const result = parseGoal(
      {
        schema_version: 1,
        criteria: [
          { id: 'a', kind: 'metric_threshold', source: 'feedback', metric: 'x', operator: '~', value: 1 },
          { id: 'a', kind: 'judge', question: 'q', rerun_stages: ['99-ghost'] },
        ],
      },
      { stages: STAGES },
    );
    expect(result.success).toBe(false);
    expect(result.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ['invalid_value', ['criteria', 0, 'operator']],
      ['duplicate_id', ['criteria', 1, 'id']],
      ['unknown_stage', ['criteria', 1, 'rerun_stages', 0]],
    ]);
  });
});
