import { describe, expect, it } from 'vitest';
import { criterion, loopOn, project, RUN } from './json-schema-loop.js';

// json_schema criteria in a real loop: a schema that does not compile is an error of the goal (a parse issue with
// its path inline, evaluation_error for schema_path), never a FAIL that reruns stages.

describe('json_schema criteria in a loop', () => {
  it('an inline schema that does not compile is a goal parse error at criteria.<i>.schema; no stage runs', async () => {
    const fs = project({ [`${RUN}/out.json`]: {} });
    const { loop, runner } = loopOn(fs, [
      { id: 'exists', kind: 'file_exists', path: `${RUN}/out.json` },
      criterion({ schema: { type: 'object', properties: { a: { type: 'nope' } } } }),
    ]);
    const result = await loop.run();
    expect(result.stoppedOn).toBe('evaluation_error');
    expect(result.evaluation?.status).toBe('ERROR');
    expect(result.evaluation?.issues).toEqual([
      {
        code: 'invalid_schema',
        path: ['criteria', 1, 'schema'],
        message: expect.stringMatching(/^criterion shape: the JSON Schema \(2020-12\) does not compile: /),
      },
    ]);
    expect(result.reason).toContain('$.criteria[1].schema');
    expect(runner.calls).toEqual([]);
    expect((await loop.evaluate()).issues).toEqual(result.evaluation?.issues);
  });

  it('an inline schema with an unsupported $schema is a parse error too', async () => {
    const { loop } = loopOn(project({}), [
      criterion({ schema: { $schema: 'http://json-schema.org/draft-04/schema#' } }),
    ]);
    const evaluation = await loop.evaluate();
    expect(evaluation.status).toBe('ERROR');
    expect(evaluation.issues[0]?.path).toEqual(['criteria', 0, 'schema']);
    expect(evaluation.issues[0]?.message).toContain('unsupported "$schema"');
  });

  it('a schema_path schema that does not compile stops the loop with evaluation_error naming the criterion, every time', async () => {
    const broken = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: 'name' };
    const fs = project({ 'schemas/out.schema.json': broken, [`${RUN}/out.json`]: { name: 'x' } });
    const { loop, runner } = loopOn(fs, [criterion({ schema_path: 'schemas/out.schema.json' })]);
    const result = await loop.run();
    expect(result.stoppedOn).toBe('evaluation_error');
    expect(result.evaluation?.status).toBe('ERROR');
    expect(result.reason).toContain('criterion shape');
    expect(result.reason).toContain('schema_path "schemas/out.schema.json"');
    expect(result.evaluation?.issues[0]?.path).toEqual(['criteria', 0, 'schema_path']);
    expect(result.evaluation?.recommendedRerunStages).toEqual([]);
    // The stage ran once and was never rerun for it.
    expect(runner.calls).toHaveLength(1);

    const again = await loop.evaluate();
    const third = await loop.evaluate();
    expect(again.reason).toBe(result.evaluation?.reason);
    expect(third).toEqual(again);
    const resumed = await loop.run();
    expect(resumed.stoppedOn).toBe('evaluation_error');
    expect(resumed.reason).toBe(result.reason);
  });

  it('a schema_path file that is not JSON is the same kind of error; a missing one is a FAIL (a stage may write it)', async () => {
    const fs = project({ 'schemas/out.schema.json': '{ not json', [`${RUN}/out.json`]: {} });
    const { loop } = loopOn(fs, [criterion({ schema_path: 'schemas/out.schema.json' })]);
    const malformed = await loop.evaluate();
    expect(malformed.status).toBe('ERROR');
    expect(malformed.reason).toContain('criterion shape');

    const missing = loopOn(project({ [`${RUN}/out.json`]: {} }), [criterion({ schema_path: 'schemas/none.json' })]);
    const evaluation = await missing.loop.evaluate();
    expect(evaluation.status).toBe('RETRY');
    // The summary names the file that is missing: the schema, not the document (which exists).
    expect(evaluation.criteria[0]).toMatchObject({
      id: 'shape',
      status: 'FAIL',
      summary: 'its schema schemas/none.json unavailable',
    });
    expect(evaluation.criteria[0]?.detail).toContain('schema_path');
    const noDocument = loopOn(project({ 'schemas/out.schema.json': {} }), [
      criterion({ schema_path: 'schemas/out.schema.json' }),
    ]);
    expect((await noDocument.loop.evaluate()).criteria[0]).toMatchObject({
      status: 'FAIL',
      summary: `${RUN}/out.json unavailable`,
    });
  });

  it('a pattern only a backtracking engine runs is refused before it runs: inline a goal error, schema_path an evaluation_error', async () => {
    const fs = project({ [`${RUN}/out.json`]: { name: `${'a'.repeat(22)}!` } });
    const nested = { type: 'object', properties: { name: { type: 'string', pattern: '^(a)\\1$' } } };
    const inline = await loopOn(fs, [criterion({ schema: nested })]).loop.run();
    expect(inline.stoppedOn).toBe('evaluation_error');
    expect(inline.evaluation?.issues[0]?.path).toEqual(['criteria', 0, 'schema']);
    expect(inline.evaluation?.issues[0]?.message).toContain('pattern "^(a)\\\\1$" holds the backreference "\\1"');

    await fs.writeText('schemas/out.schema.json', JSON.stringify({ patternProperties: { '^(?!x)\\w+$': {} } }));
    const fromFile = await loopOn(fs, [criterion({ schema_path: 'schemas/out.schema.json' })]).loop.evaluate();
    expect(fromFile.status).toBe('ERROR');
    expect(fromFile.reason).toContain('criteria[0]');
    expect(fromFile.reason).toContain('holds the negative lookahead "(?!"');

    // A nested repetition, exponential on a backtracking engine, runs on RE2 in time linear in the value.
    const linear = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } };
    const evaluation = await loopOn(fs, [criterion({ schema: linear })]).loop.evaluate();
    expect(evaluation.criteria[0]).toMatchObject({ status: 'FAIL' });
  });
});
