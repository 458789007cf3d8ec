import { describe, expect, it } from 'vitest';
import { readFeedbackView } from '../../../src/goal/contracts/feedback-view.js';
import { evaluateBuiltins } from '../../../src/goal/core/builtins.js';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { FEEDBACK, facts, feedback } from './fixtures.js';

// One off-type field in feedback.json: the rest of the report is read, and the field is reported.

describe('feedback.json with off-type fields', () => {
  it('summary.critical_count "0" reads as 0: no critical, no feedback rerun, the field reported', () => {
    const input = facts({ feedback: feedback({ summary: { critical_count: '0' }, issues: [] }) });
    const builtins = evaluateBuiltins(input);
    expect(builtins.checks.find((check) => check.id === 'feedback:readable')).toBeUndefined();
    expect(builtins.checks.find((check) => check.id === 'feedback:criticals')?.status).toBe('PASS');
    expect(builtins.issues).toEqual([
      {
        code: 'coerced',
        path: ['summary', 'critical_count'],
        message: 'feedback.json: expected a number, got the string "0"; read as 0',
      },
    ]);
    const evaluation = evaluateGoal(input);
    expect(evaluation.status).toBe('PASS');
    expect(evaluation.issues.map((issue) => issue.path)).toEqual([['summary', 'critical_count']]);
  });

  it('a numeric string count above zero counts those criticals', () => {
    const read = feedback({ summary: { critical_count: ' 2 ' }, issues: [] });
    expect(evaluateBuiltins(facts({ feedback: read })).criticalCount).toBe(2);
  });

  it('an off-type field of one issue drops that field only; the critical still routes to its stage', () => {
    const input = facts({
      feedback: feedback({
        summary: { critical_count: 1 },
        issues: [
          { id: 'C1', severity: 'CRITICAL', category: 7, remediation: { agent_to_rerun: '07-code' } },
          'not an issue',
        ],
      }),
    });
    const builtins = evaluateBuiltins(input);
    expect(builtins.checks.find((check) => check.id === 'feedback:criticals')).toMatchObject({
      status: 'FAIL',
      rerunStages: ['07-code'],
    });
    expect(builtins.issues.map((issue) => issue.path)).toEqual([
      ['issues', 0, 'category'],
      ['issues', 1],
    ]);
    expect(builtins.issues[0]?.message).toMatch(/^feedback\.json: .*; ignored$/);
  });

  it('an unreadable count with no critical listed is not trusted as zero: feedback:readable fails and reruns the feedback stage', () => {
    const builtins = evaluateBuiltins(
      facts({ feedback: feedback({ summary: { critical_count: 'none' }, issues: [] }) }),
    );
    expect(builtins.checks.find((check) => check.id === 'feedback:readable')).toMatchObject({
      status: 'FAIL',
      rerunStages: [FEEDBACK],
      detail: expect.stringContaining('summary.critical_count cannot be read'),
    });
    expect(builtins.checks.find((check) => check.id === 'feedback:criticals')).toBeUndefined();
  });

  it('an off-type goal_evaluation stamp is dropped and reported; the section is still read', () => {
    const read = readFeedbackView({
      issues: [],
      goal_evaluation: { iteration: 'two', criteria: [{ criterion_id: 'x' }] },
    });
    expect(read.state).toBe('present');
    if (read.state !== 'present') return;
    expect(read.report.goal_evaluation?.criteria).toHaveLength(1);
    expect(read.issues?.map((issue) => issue.path)).toEqual([['goal_evaluation', 'iteration']]);
  });

  it('a report that is not an object is still malformed', () => {
    expect(readFeedbackView('text').state).toBe('malformed');
    expect(readFeedbackView(null).state).toBe('malformed');
  });
});

describe('feedback.json that says nothing of critical issues', () => {
  it.each([
    ['an empty object', {}],
    ['a foreign document', { a: { b: 1 } }],
    ['a summary without a count', { summary: { score: 97 } }],
  ])('%s is not a clean report: feedback:readable fails and the feedback stage reruns', (_what, content) => {
    const builtins = evaluateBuiltins(facts({ feedback: feedback(content) }));
    const readable = builtins.checks.find((check) => check.id === 'feedback:readable');
    expect(readable).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('summary.critical_count') });
    expect(builtins.checks.find((check) => check.id === 'feedback:criticals')).toBeUndefined();
  });

  it('an issues list alone (no summary) is enough to count', () => {
    const builtins = evaluateBuiltins(facts({ feedback: feedback({ issues: [] }) }));
    expect(builtins.checks.find((check) => check.id === 'feedback:criticals')?.status).toBe('PASS');
  });
});
