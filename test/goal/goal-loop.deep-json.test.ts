import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// JSON nested 10,000 deep in a run's files: a parse issue, a hash or an evaluation, never a stack overflow.

const RUN = 'runs/deep';
const DEPTH = 10_000;
const FEEDBACK = 'artifacts/stages/11-feedback-loop/feedback.json';
const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const deepSchema = `${'{"type":"object","properties":{"a":'.repeat(DEPTH)}{"type":"object"}${'}}'.repeat(DEPTH)}`;
const goalText = (criteria: string) => `{"schema_version":1,"goal_id":"deep","criteria":[${criteria}]}`;

function loopWith(files: Record<string, string>) {
  const fs = createMemoryFileSystem({
    files: Object.fromEntries(Object.entries(files).map(([k, v]) => [`${RUN}/${k}`, v])),
  });
  const calls: string[] = [];
  const loop = new GoalLoop({
    fs,
    runDir: RUN,
    stages: ['07-code', '11-feedback-loop'],
    runner: {
      run: async (stage) => {
        calls.push(stage);
        return { status: 'passed' };
      },
    },
  });
  return { loop, calls };
}

describe('JSON nested 10,000 deep', () => {
  it('an inline json_schema schema: evaluation_error naming criteria[0].schema, no stage run, every time', async () => {
    const { loop, calls } = loopWith({
      'goal.json': goalText(`{"id":"shape","kind":"json_schema","path":"x.json","schema":${deepSchema}}`),
    });
    const result = await loop.run();
    expect(result.stoppedOn).toBe('evaluation_error');
    expect(result.reason).toContain('$.criteria[0].schema');
    expect(calls).toEqual([]);
    expect((await loop.run()).stoppedOn).toBe('evaluation_error');
  });

  it('a deep unknown field in goal.json: a parse issue naming the field', async () => {
    const { loop, calls } = loopWith({
      'goal.json': goalText(`{"id":"j","kind":"judge","question":"ok?","extra":${deepArray}}`),
    });
    const result = await loop.run();
    expect(result.stoppedOn).toBe('evaluation_error');
    expect(result.reason).toContain('$.criteria[0].extra: unknown key `extra`');
    expect(calls).toEqual([]);
  });

  it('a deep schema_path schema: evaluation_error naming criteria[0].schema_path', async () => {
    const { loop } = loopWith({
      'goal.json': goalText(
        '{"id":"shape","kind":"json_schema","path":"x.json","run_relative":true,"schema_path":"schema.json"}',
      ),
      'schema.json': deepSchema,
      'x.json': '{}',
    });
    const result = await loop.run();
    expect(result.stoppedOn).toBe('evaluation_error');
    expect(result.reason).toContain('$.criteria[0].schema_path');
  });

  it('deep fields in feedback.json, goal-verdict.json and a checked document are read like any other', async () => {
    const { loop } = loopWith({
      'goal.json': goalText(
        '{"id":"shape","kind":"json_schema","path":"x.json","run_relative":true,"schema":{"type":"array"}}',
      ),
      [FEEDBACK]: `{"summary":{"critical_count":0},"issues":[],"deep":${deepArray}}`,
      'goal-verdict.json': `{"verdict":"PASS","note":${deepArray}}`,
      'x.json': deepArray,
    });
    const result = await loop.run();
    expect(result.stoppedOn).toBe('complete');
    expect(result.evaluation?.status).toBe('PASS');
  });
});
