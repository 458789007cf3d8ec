import { describe, expect, it } from 'vitest';
import { parseVerdictFile } from '../../../src/goal/contracts/verdict.js';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { agentReport, claimOf, facts, goal, JUDGE_FACT, judge, verdicts } from './fixtures.js';

// Lists longer than a call's argument limit (about 120,000 on V8's default stack): goal-verdict.json and feedback.json
// are written by hosts and agents, and a list they hold is gathered into the evaluation, never spread into a call.
const LONG = 300_000;

describe('evaluateGoal: lists past the argument limit', () => {
  it('takes a FAIL verdict naming its rerun stage 300,000 times', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([judge('design', ['07-code'])]),
        criteria: { design: JUDGE_FACT },
        explicitVerdicts: verdicts({
          criterion_id: 'design',
          verdict: 'FAIL',
          recommended_rerun_stages: Array.from({ length: LONG }, () => '06-architecture'),
        }),
      }),
    );
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.recommendedRerunStages).toEqual(['06-architecture', '11-feedback-loop']);
    // The criterion's own list names the stage once, as the evaluation.json written per iteration shows it.
    expect(evaluation.criteria[0]?.rerunStages).toEqual(['06-architecture']);
  });

  it('asks the user once for 300,000 agent claims stamped ahead', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([judge('design', ['07-code'])]),
        criteria: { design: JUDGE_FACT },
        iteration: 1,
        feedback: agentReport(Array.from({ length: LONG }, () => claimOf('design', 'met', { iteration: 9 }))),
      }),
    );
    expect(evaluation.status).toBe('ASK_USER');
    expect(evaluation.criteria[0]?.status).toBe('PENDING');
  });

  it('reports a verdict naming 300,000 empty stages, one issue each, and ignores it', () => {
    const parsed = parseVerdictFile([{ verdict: 'PASS', recommended_rerun_stages: Array(LONG).fill('') }]);
    expect(parsed.verdicts).toEqual([]);
    expect(parsed.issues).toHaveLength(LONG);
    expect(parsed.issues[LONG - 1]?.path).toEqual([0, 'recommended_rerun_stages', LONG - 1]);
  });

  it('rejects an agent claim with 300,000 evidence entries that are not paths, one issue each', () => {
    const claim = { ...claimOf('design', 'met'), evidence: Array(LONG).fill(7) };
    const evaluation = evaluateGoal(
      facts({
        goal: goal([judge('design', ['07-code'])]),
        criteria: { design: JUDGE_FACT },
        feedback: agentReport([claim]),
      }),
    );
    expect(evaluation.claims.rejected).toHaveLength(1);
    expect(evaluation.issues.length).toBeGreaterThanOrEqual(LONG);
  });
});
