import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GoalLoop, type GoalLoopOptions, parseGoal } from '../../src/index.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';

// The public parseGoal compiles inline json_schema schemas as the loop does: a goal it accepts never stops a loop
// with evaluation_error for its own sake, and a goal it refuses gives the loop's issues, word for word.

const RUN = 'runs/r';
const STAGES = ['build'];

const goalWith = (schema: unknown, extra: Record<string, unknown> = {}) => ({
  schema_version: 1,
  goal_id: 'schemas',
  criteria: [{ id: 'x', kind: 'json_schema', path: `${RUN}/out.json`, rerun_stages: ['build'], schema, ...extra }],
});

// One run of a loop on the goal, its stage passing and the document present.
async function runLoop(goal: unknown) {
  const fs = createMemoryFileSystem({ files: { [`${RUN}/out.json`]: JSON.stringify({ name: 'a' }) } });
  const options: GoalLoopOptions = {
    fs,
    runDir: RUN,
    stages: STAGES,
    runner: createScriptedStageRunner({ build: { status: 'passed' } }),
    clock: createManualClock(Date.UTC(2030, 0, 1)),
    maxIterations: 1,
    goal: goal as GoalLoopOptions['goal'],
  };
  return new GoalLoop(options).run();
}

const REFUSED: readonly [string, unknown, RegExp][] = [
  ['a type that is not a type name', { type: 5 }, /the JSON Schema \(2020-12\) does not compile: schema is invalid/],
  ['a pattern that is no regular expression', { pattern: '((' }, /does not compile: Invalid regular expression/],
  ['an unsupported $schema', { $schema: 'http://example.com/x' }, /unsupported "\$schema" "http:\/\/example\.com\/x"/],
  [
    'a pattern with a lookahead',
    { type: 'string', pattern: '^(?=a)\\w+$' },
    /does not compile: pattern "\^\(\?=a\)\\\\w\+\$" holds the lookahead "\(\?="/,
  ],
];

describe('parseGoal and inline JSON Schemas', () => {
  it.each(REFUSED)('refuses %s at $.criteria[0].schema, with the compile error', (_, schema, error) => {
    const result = parseGoal(goalWith(schema), { stages: STAGES });
    expect(result.success).toBe(false);
    expect(result.issues).toEqual([
      { code: 'invalid_schema', path: ['criteria', 0, 'schema'], message: expect.stringMatching(error) },
    ]);
    expect(result.issues[0]?.message).toMatch(/^criterion x: /);
  });

  it.each(REFUSED)('refuses %s with the very issue the loop stops on', async (_, schema) => {
    const result = await runLoop(goalWith(schema));
    expect(result.stoppedOn).toBe('evaluation_error');
    expect(result.reason).toContain('$.criteria[0].schema');
    expect(result.evaluation?.issues).toEqual(parseGoal(goalWith(schema), { stages: STAGES }).issues);
  });

  it('accepts schemas that compile, in each dialect, and booleans', () => {
    for (const schema of [
      { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: '^[a-z]+(-[a-z]+)*$' } } },
      { $schema: 'http://json-schema.org/draft-07/schema#', items: [{ type: 'string' }] },
      { $schema: 'https://json-schema.org/draft/2019-09/schema', unevaluatedProperties: false },
      true,
      false,
    ]) {
      const result = parseGoal(goalWith(schema), { stages: STAGES });
      expect(result, JSON.stringify(schema)).toMatchObject({ success: true, issues: [] });
      expect(result.success && result.data.criteria[0]).toMatchObject({ id: 'x', schema });
    }
  });

  it('reports a schema that does not compile beside the structural issues, in the loop order', () => {
    const result = parseGoal(goalWith({ type: 5 }, { rerun_stages: ['deploy'] }), { stages: STAGES });
    expect(result.issues.map((issue) => issue.path)).toEqual([
      ['criteria', 0, 'rerun_stages', 0],
      ['criteria', 0, 'schema'],
    ]);
  });

  it('names a criterion without a usable id by its index, and leaves a schema of the wrong type to the contract', () => {
    const noId = parseGoal({
      schema_version: 1,
      criteria: [{ kind: 'json_schema', path: 'f.json', schema: { type: 5 } }],
    });
    expect(noId.issues.find((issue) => issue.code === 'invalid_schema')?.message).toMatch(/^criterion 0: /);
    const wrongType = parseGoal(goalWith('a string'));
    expect(wrongType.issues.map((issue) => issue.path)).toEqual([['criteria', 0, 'schema']]);
    expect(wrongType.issues.some((issue) => issue.code === 'invalid_schema')).toBe(false);
  });

  it('agrees with the loop: parseGoal accepts the goal ⇔ the loop does not stop with evaluation_error', async () => {
    const schemaArb = fc.oneof(
      fc.boolean(),
      fc.record(
        {
          $schema: fc.constantFrom(
            'http://json-schema.org/draft-07/schema#',
            'https://json-schema.org/draft/2019-09/schema',
            'https://json-schema.org/draft/2020-12/schema',
            'http://json-schema.org/draft-04/schema#',
            'http://example.com/x',
            5,
          ),
          type: fc.constantFrom('string', 'object', ['object', 'null'], 'nope', 5),
          pattern: fc.constantFrom(
            '^a$',
            '((',
            '^(a+)+$',
            '^(a)\\1$',
            '(?<=a)b',
            '^(\\w+\\s?)*$',
            '^[a-z]+(-[a-z]+)*$',
            '^(\\d+\\.)+\\d+$',
          ),
          minimum: fc.constantFrom(0, 'zero'),
          required: fc.constantFrom(['name'], 'name'),
          format: fc.constantFrom('email', 'no-such-format'),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(schemaArb, async (schema) => {
        const goal = goalWith(schema);
        const parsed = parseGoal(goal, { stages: STAGES });
        const result = await runLoop(goal);
        expect(result.stoppedOn === 'evaluation_error', JSON.stringify(schema)).toBe(!parsed.success);
        if (!parsed.success) expect(result.evaluation?.issues).toEqual(parsed.issues);
      }),
      { numRuns: 60 },
    );
  });

  it('agrees with the loop on a goal from code that holds what JSON cannot: both refuse it at its path', async () => {
    for (const schema of [new Map([['type', 'string']]), { const: new Date(0) }]) {
      const goal = goalWith(schema);
      const parsed = parseGoal(goal, { stages: STAGES });
      expect(parsed.success).toBe(false);
      expect(parsed.issues[0]?.message).toMatch(/^a (Map|Date) is not JSON$/);
      const result = await runLoop(goal);
      expect(result.stoppedOn).toBe('evaluation_error');
      expect(result.evaluation?.issues).toEqual(parsed.issues);
    }
  });
});

describe('parseGoal on goal.json text', () => {
  const goal = { schema_version: 1, goal_id: 'g', criteria: [{ id: 'out', kind: 'file_exists', path: 'out.txt' }] };

  it('reads a string as JSON and parses the goal it holds, issues and all', () => {
    expect(parseGoal(JSON.stringify(goal))).toEqual(parseGoal(goal));
    expect(parseGoal(JSON.stringify(goal)).success).toBe(true);
    const misspelt = JSON.stringify({ ...goal, criteria: [{ id: 'out', kind: 'file_exists', pth: 'x' }] });
    expect(parseGoal(misspelt)).toEqual(parseGoal(JSON.parse(misspelt)));
    expect(parseGoal(misspelt).success).toBe(false);
  });

  it('reads the text once: a goal.json holding a JSON string is a string, never a goal decoded twice', () => {
    const twice = JSON.stringify(JSON.stringify(goal));
    expect(parseGoal(twice).success).toBe(false);
    expect(parseGoal(twice).issues).toEqual([expect.objectContaining({ path: [] })]);
    const hello = parseGoal('"hello"').issues.map((issue) => issue.message);
    expect(hello.join()).not.toContain('Not valid JSON');
  });

  it('a loop refuses a goal.json holding a JSON string (evaluation_error), as the shipped schema does', async () => {
    const fs = createMemoryFileSystem({ files: { 'runs/r/goal.json': JSON.stringify(JSON.stringify(goal)) } });
    const runner = createScriptedStageRunner({ a: { status: 'passed' } });
    const loop = new GoalLoop({ fs, runDir: 'runs/r', stages: ['a'], runner, clock: createManualClock(0) });
    expect((await loop.run()).stoppedOn).toBe('evaluation_error');
    expect(runner.calls).toEqual([]);
  });

  it('text that is not JSON is one issue at $ saying where it breaks; options are still checked', () => {
    expect(parseGoal('{"schema_version": 1,')).toEqual({
      success: false,
      issues: [{ code: 'invalid_json', path: [], message: expect.stringMatching(/^Not valid JSON/) }],
    });
    expect(() => parseGoal('{', { stage: [] } as never)).toThrow(/\$\.stage/);
  });
});
