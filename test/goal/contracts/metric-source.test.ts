import { describe, expect, it } from 'vitest';
import { parseGoalStructure as parseGoal } from '../../../src/goal/contracts/parse-goal.js';

// The metric source of a metric_threshold criterion, and rstack-agents' "pipeline_state".

const withSource = (source: unknown) =>
  parseGoal({
    schema_version: 1,
    goal_id: 'g',
    criteria: [{ id: 'm', kind: 'metric_threshold', source, metric: 'a', operator: '==', value: 0 }],
  });

describe('metric_threshold source', () => {
  it('accepts "feedback", "loop_state" and { file }', () => {
    for (const source of ['feedback', 'loop_state', { file: 'metrics.json' }])
      expect(withSource(source).success).toBe(true);
  });

  it('"pipeline_state" (rstack-agents\' rollup, not loop-state.json) is an issue that says what to write instead', () => {
    const result = withSource('pipeline_state');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues).toEqual([
      expect.objectContaining({
        path: ['criteria', 0, 'source'],
        message: expect.stringContaining('write "loop_state"'),
      }),
    ]);
    expect(result.issues[0]?.message).toContain('{ "file": "pipeline-state.json" }');
  });

  it('any other source lists the accepted ones', () => {
    const result = withSource('metrics');
    expect(result.success ? [] : result.issues.map((issue) => issue.message)).toEqual([
      'expected "feedback", "loop_state" or { "file": "<path in the run dir>" }',
    ]);
  });
});
