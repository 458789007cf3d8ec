import { defineGoal, type GoalInput, GoalLoop } from 'goal-loop';
import type { GoalDefinition } from 'goal-loop/contracts';
import { createMemoryFileSystem, createScriptedStageRunner } from 'goal-loop/testing';
import { describe, expectTypeOf, it } from 'vitest';

const loopWith = (goal: GoalInput) =>
  new GoalLoop({
    fs: createMemoryFileSystem(),
    runDir: 'r',
    stages: ['03-documentation'],
    runner: createScriptedStageRunner({}),
    goal,
  });

describe('defineGoal', () => {
  it('types a goal kept in a variable, with no satisfies', () => {
    const goal = defineGoal({
      schema_version: 1,
      goal_id: 'docs-ready',
      criteria: [
        { id: 'readme', kind: 'file_exists', path: 'README.md' },
        { id: 'lint', kind: 'command', command: 'npm run docs:check', rerun_stages: ['03-documentation'] },
        { id: 'errors', kind: 'metric_threshold', source: { file: 'm.json' }, metric: 'n', operator: '==', value: 0 },
        { id: 'shape', kind: 'json_schema', path: 'a.json', schema: { type: 'object' } },
        { id: 'ok', kind: 'judge', question: 'Good?' },
      ],
    });
    expectTypeOf(goal).toExtend<GoalInput>();
    // The criteria given are typed as present: no TS18048 on goal.criteria.
    expectTypeOf(goal.criteria).not.toBeNullable();
    expectTypeOf(goal.criteria.length).toBeNumber();
    expectTypeOf(defineGoal({ schema_version: 1 }).criteria).not.toBeNullable();
    loopWith(goal);
  });

  it('accepts an as const literal with readonly arrays', () => {
    const literal = {
      schema_version: 1,
      criteria: [
        { id: 'lint', kind: 'command', command: 'npm test', rerun_stages: ['03-documentation'] },
        { id: 'shape', kind: 'json_schema', path: 'a.json', schema: { type: 'object', required: ['name'] } },
      ],
    } as const;
    expectTypeOf(literal).toMatchTypeOf<GoalDefinition>();
    loopWith(defineGoal(literal));
  });

  it('rejects what the goal contract rejects, where it is written', () => {
    // @ts-expect-error schema_version must be 1
    defineGoal({ schema_version: 2 });
    // @ts-expect-error an unknown criterion kind
    defineGoal({ schema_version: 1, criteria: [{ id: 'a', kind: 'file_missing', path: 'x' }] });
    // @ts-expect-error a command criterion needs its command
    defineGoal({ schema_version: 1, criteria: [{ id: 'a', kind: 'command' }] });
    defineGoal({
      schema_version: 1,
      // @ts-expect-error an unknown operator
      criteria: [{ id: 'a', kind: 'metric_threshold', source: 'feedback', metric: 'n', operator: '=', value: 0 }],
    });
  });

  it('a plain object literal kept in a variable is what defineGoal is for', () => {
    const plain = { schema_version: 1, criteria: [] };
    // @ts-expect-error schema_version widens to number without defineGoal
    loopWith(plain);
  });
});
