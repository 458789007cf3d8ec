// evaluateGoal is public and pure: a host that edits its goal object between two evaluations gets the evaluation of
// the goal as it now stands, the same as for a fresh copy of it.
import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { facts, fileExists, goal, JUDGE_FACT, judge, present, verdicts } from './fixtures.js';

describe('evaluateGoal over a goal object edited between calls', () => {
  it('sees a judge criterion added to the same goal object, as it does for a copy', () => {
    const edited = goal([judge('a')]);
    const input = facts({
      goal: edited,
      criteria: { a: JUDGE_FACT, b: JUDGE_FACT },
      explicitVerdicts: verdicts([
        { criterion_id: 'a', verdict: 'PASS' },
        { criterion_id: 'b', verdict: 'PASS' },
      ]),
    });
    expect(evaluateGoal(input).status).toBe('PASS');
    edited.criteria.push(goal([judge('b')]).criteria[0] as (typeof edited.criteria)[number]);
    const copy = evaluateGoal({ ...input, goal: structuredClone(edited) });
    expect(copy.criteria.map((criterion) => criterion.status)).toEqual(['PASS', 'PASS']);
    expect(evaluateGoal(input)).toEqual(copy);
  });

  it('sees a criterion turned from a file check into a judge', () => {
    const edited = goal([fileExists('a')]);
    const input = facts({
      goal: edited,
      criteria: { a: present() },
      explicitVerdicts: verdicts([{ criterion_id: 'a', verdict: 'FAIL' }]),
    });
    evaluateGoal(input);
    edited.criteria[0] = goal([judge('a')]).criteria[0] as (typeof edited.criteria)[number];
    const next = evaluateGoal({ ...input, criteria: { a: JUDGE_FACT } });
    expect(next).toEqual(evaluateGoal({ ...input, criteria: { a: JUDGE_FACT }, goal: structuredClone(edited) }));
    expect(next.criteria[0]?.status).toBe('FAIL');
  });
});
