import { describe, expect, it } from 'vitest';
import { parseGoalStructure as parseGoal } from '../../src/goal/contracts/parse-goal.js';
import { gatherFacts } from '../../src/goal/gather.js';
import { runPaths } from '../../src/pipeline/run-paths.js';
import { JsonSchemaChecker } from '../../src/runtime/json-schema-check.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

const RUN = 'runs/r1';
const STAGES = ['07-code', '11-feedback-loop'];

describe('gatherFacts', () => {
  it('gives each criterion its own fact, whatever the order of kinds that read files and kinds that share one', async () => {
    const fs = createMemoryFileSystem({
      files: {
        'docs/a.md': '# a',
        [`${RUN}/artifacts/stages/11-feedback-loop/feedback.json`]: JSON.stringify({ summary: { score: 91 } }),
        [`${RUN}/metrics/extra.json`]: JSON.stringify({ count: 3 }),
      },
    });
    const parsed = parseGoal(
      {
        schema_version: 1,
        goal_id: 'mixed',
        criteria: [
          { id: 'judge-1', kind: 'judge', question: 'Good?' },
          { id: 'file-a', kind: 'file_exists', path: 'docs/a.md' },
          {
            id: 'score',
            kind: 'metric_threshold',
            source: 'feedback',
            metric: 'summary.score',
            operator: '>=',
            value: 90,
          },
          { id: 'file-b', kind: 'file_exists', path: 'docs/b.md' },
          {
            id: 'state',
            kind: 'metric_threshold',
            source: 'loop_state',
            metric: 'iteration',
            operator: '>=',
            value: 1,
          },
          {
            id: 'extra',
            kind: 'metric_threshold',
            source: { file: 'metrics/extra.json' },
            metric: 'count',
            operator: '==',
            value: 3,
          },
          { id: 'judge-2', kind: 'judge', question: 'Still good?' },
          { id: 'skipped', kind: 'command', command: 'true' },
        ],
      },
      { stages: STAGES },
    );
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    const facts = await gatherFacts({
      fs,
      paths: runPaths(RUN, '11-feedback-loop'),
      goal: parsed.data,
      stages: STAGES,
      feedbackStage: '11-feedback-loop',
      iteration: null,
      stageStatuses: { '07-code': 'passed', '11-feedback-loop': 'passed' },
      loopState: { state: 'missing', detail: `${RUN}/loop-state.json does not exist` },
      commands: undefined,
      skipCommands: true,
      concurrency: 2,
      signal: undefined,
      checker: new JsonSchemaChecker(),
    });
    expect(Object.keys(facts.criteria)).toEqual(parsed.data.criteria.map((criterion) => criterion.id));
    expect(facts.criteria['judge-1']).toEqual({ kind: 'judge' });
    expect(facts.criteria['judge-2']).toEqual({ kind: 'judge' });
    expect(facts.criteria['file-a']).toEqual({
      kind: 'file_exists',
      path: { state: 'present', path: 'docs/a.md', type: 'file' },
    });
    expect(facts.criteria['file-b']).toEqual({ kind: 'file_exists', path: { state: 'missing', path: 'docs/b.md' } });
    expect(facts.criteria.score).toEqual({
      kind: 'metric_threshold',
      source: { state: 'present', document: { summary: { score: 91 } } },
    });
    expect(facts.criteria.state).toEqual({
      kind: 'metric_threshold',
      source: { state: 'missing', detail: `${RUN}/loop-state.json does not exist` },
    });
    expect(facts.criteria.extra).toEqual({
      kind: 'metric_threshold',
      source: { state: 'present', document: { count: 3 } },
    });
    expect(facts.criteria.skipped).toMatchObject({ kind: 'command', outcome: { state: 'skipped' } });
  });
});
