// What an evaluation says about each criterion is exactly the public CriterionEvaluation: no internal field leaks into
// it (evaluation.json is written from it), and a judge's detail is one sentence ending in one full stop.
import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { agentReport, claimOf, evidence, facts, fileExists, goal, JUDGE_FACT, judge, verdicts } from './fixtures.js';

describe('evaluateGoal: what each criterion evaluation holds', () => {
  it('a refused path names its JSON path, and the field it came from stays internal', () => {
    const refused = { state: 'refused', reason: 'lexical', detail: 'path "../x" escapes the project root' } as const;
    const evaluation = evaluateGoal(
      facts({
        goal: goal([fileExists('ok'), fileExists('out', '../x')]),
        criteria: {
          ok: { kind: 'file_exists', path: { state: 'present', path: 'ok.json', type: 'file' } },
          out: { kind: 'file_exists', path: refused },
        },
      }),
    );
    expect(Object.keys(evaluation.criteria[0] ?? {}).sort()).toEqual(
      ['detail', 'id', 'kind', 'rerunStages', 'status', 'summary'].sort(),
    );
    expect(evaluation.criteria[1]).toStrictEqual({
      id: 'out',
      kind: 'file_exists',
      rerunStages: [],
      status: 'FAIL',
      summary: '../x refused',
      refusedPath: '$.criteria[1].path',
      detail:
        '$.criteria[1].path: ../x was refused: path "../x" escapes the project root. No stage rerun can change that: correct the path in the goal (or the symlink that leads out).',
    });
  });

  it("a judge's detail ends in one full stop, whether or not the reasoning brings its own", () => {
    const detailOf = (reasoning: string, source: 'explicit' | 'agent'): string | undefined => {
      const input =
        source === 'explicit'
          ? { explicitVerdicts: verdicts({ criterion_id: 'design', verdict: 'PASS', reasoning, iteration: 2 }) }
          : {
              feedback: agentReport([claimOf('design', 'met', { reasoning, evidence: ['plan.md'], iteration: 2 })]),
              evidence: evidence(['plan.md']),
            };
      const evaluation = evaluateGoal(
        facts({ goal: goal([judge('design')]), criteria: { design: JUDGE_FACT }, iteration: 2, ...input }),
      );
      return evaluation.criteria[0]?.detail;
    };
    for (const source of ['explicit', 'agent'] as const) {
      expect(detailOf('Looks good.', source)).toMatch(/: Looks good\.$/);
      expect(detailOf('ok', source)).toMatch(/: ok\.$/);
      expect(detailOf('  ', source)).toMatch(/[^.]\.$/);
    }
  });
});
