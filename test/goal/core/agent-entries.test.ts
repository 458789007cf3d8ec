import { describe, expect, it } from 'vitest';
import type { GoalEvaluationSection } from '../../../src/goal/contracts/goal-evaluation.js';
import { readAgentEntries } from '../../../src/goal/core/agent-entries.js';

describe('readAgentEntries', () => {
  it('rejects a malformed entry under its criterion id when it has a usable one, else under none', () => {
    const criteria = [{ criterion_id: 'docs' }, { criterion_id: 42 }, { criterion_id: '' }, 'met', null];
    const { parsed, rejected, issues } = readAgentEntries({ criteria } as unknown as GoalEvaluationSection, 1);
    expect(parsed).toEqual([]);
    expect(rejected.map((claim) => [claim.criterionId, claim.index])).toEqual([
      ['docs', 0],
      [null, 1],
      [null, 2],
      [null, 3],
      [null, 4],
    ]);
    expect(rejected[0]?.reason).toMatch(/^Agent claim not used: the entry is malformed \(/);
    expect(issues[0]?.path).toEqual(['goal_evaluation', 'criteria', 0, 'result']);
  });
});
