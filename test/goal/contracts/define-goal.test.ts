import { describe, expect, it } from 'vitest';
import { defineGoal } from '../../../src/goal/contracts/define-goal.js';
import { parseGoal } from '../../../src/goal/parse-goal.js';

describe('defineGoal', () => {
  it('returns the goal itself when it has criteria', () => {
    const goal = { schema_version: 1, criteria: [{ id: 'readme', kind: 'file_exists', path: 'README.md' }] } as const;
    expect(defineGoal(goal)).toBe(goal);
  });

  it("fills in the parser's default criteria: [] when none are given, leaving the argument as it was", () => {
    const goal = { schema_version: 1, goal_id: 'empty' } as const;
    const defined = defineGoal(goal);
    expect(defined).toEqual({ schema_version: 1, goal_id: 'empty', criteria: [] });
    expect(goal).not.toHaveProperty('criteria');
    expect(parseGoal(defined)).toEqual(parseGoal(goal));
  });
});
