import type { Goal } from '../../../src/goal/contracts/goal.js';
import { parseGoalStructure as parseGoal } from '../../../src/goal/contracts/parse-goal.js';

// Parses a goal or fails the test.
function goal(input: unknown): Goal {
  const parsed = parseGoal(input);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
  return parsed.data;
}

/** The ship-auth goal: a feedback.json metric, a run file, a command, a judge and a loop-state metric. */
export const GOAL = goal({
  schema_version: 1,
  goal_id: 'ship-auth',
  criteria: [
    {
      id: 'no-criticals',
      kind: 'metric_threshold',
      source: 'feedback',
      metric: 'summary.critical_count',
      operator: '==',
      value: 0,
      rerun_stages: ['08-testing'],
    },
    {
      id: 'docs',
      kind: 'file_exists',
      path: 'artifacts/stages/03-documentation/documentation.json',
      run_relative: true,
    },
    { id: 'lint', kind: 'command', command: 'npm run lint' },
    { id: 'design-review', kind: 'judge', question: 'Is the design sound?' },
    { id: 'loop-metric', kind: 'metric_threshold', source: 'loop_state', metric: 'x', operator: '>=', value: 1 },
  ],
});
/** {@link GOAL} without its judge criterion. */
export const NO_JUDGE = { ...GOAL, criteria: GOAL.criteria.filter((criterion) => criterion.kind !== 'judge') };
