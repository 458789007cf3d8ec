import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { passed } from './helpers.js';
import { criterion, loopOn, project, RUN } from './json-schema-loop.js';

// json_schema criteria in a real loop: the dialect follows $schema (2020-12 unless it names 2019-09 or draft-07).

const GOAL_SCHEMA_TEXT = readFileSync(join(import.meta.dirname, '../../schemas/goal.schema.json'), 'utf8');

describe('json_schema criteria in a loop', () => {
  it("validates against this package's own goal.schema.json (2020-12), by schema_path or inline, the same every time", async () => {
    const valid = { schema_version: 1, criteria: [{ id: 'a', kind: 'file_exists', path: 'x' }] };
    for (const schemaRef of [{ schema_path: 'schemas/goal.schema.json' }, { schema: JSON.parse(GOAL_SCHEMA_TEXT) }]) {
      const fs = project({ 'schemas/goal.schema.json': GOAL_SCHEMA_TEXT, [`${RUN}/out.json`]: valid });
      const { loop } = loopOn(fs, [criterion(schemaRef)]);
      const result = await loop.run();
      expect(result.stoppedOn).toBe('complete');
      expect(result.evaluation?.criteria[0]).toMatchObject({ id: 'shape', status: 'PASS' });

      await fs.writeText(`${RUN}/out.json`, JSON.stringify({ ...valid, schema_version: 2 }));
      const first = await loop.evaluate();
      const second = await loop.evaluate();
      expect(first.criteria[0]).toMatchObject({ status: 'FAIL' });
      expect(first.criteria[0]?.detail).toContain('/schema_version');
      expect(second).toEqual(first);
    }
  });

  it('unevaluatedProperties: false fails an extra property (2020-12 and 2019-09), and a stage that fixes it completes', async () => {
    for (const $schema of [undefined, 'https://json-schema.org/draft/2019-09/schema']) {
      const schema = {
        ...($schema === undefined ? {} : { $schema }),
        type: 'object',
        allOf: [{ properties: { name: { type: 'string' } }, required: ['name'] }],
        unevaluatedProperties: false,
      };
      const fs = project({ [`${RUN}/out.json`]: { name: 'x', debug: true } });
      const { loop, runner } = loopOn(fs, [criterion({ schema })], {
        build: async (ctx) => {
          if (ctx.iteration === 2) await ctx.fs.writeText(`${RUN}/out.json`, JSON.stringify({ name: 'x' }));
          return passed;
        },
      });
      const evaluation = await loop.evaluate();
      expect(evaluation.status).toBe('RETRY');
      expect(evaluation.criteria[0]?.detail).toContain('must NOT have unevaluated properties ("debug")');
      const result = await loop.run();
      expect(result.stoppedOn).toBe('complete');
      expect(result.iteration).toBe(2);
      expect(runner.calls.map((call) => call.iteration)).toEqual([1, 2]);
    }
  });

  it('a draft-07 schema is read as draft-07 (tuple items, dependencies)', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
      dependencies: { pair: ['owner'] },
    };
    const fs = project({ [`${RUN}/out.json`]: { pair: ['a', 1] } });
    const { loop } = loopOn(fs, [criterion({ schema })]);
    const missingOwner = await loop.evaluate();
    expect(missingOwner.criteria[0]).toMatchObject({ status: 'FAIL' });
    expect(missingOwner.criteria[0]?.detail).toContain('must have property owner when property pair is present');
    await fs.writeText(`${RUN}/out.json`, JSON.stringify({ pair: ['a', 'b'], owner: 'me' }));
    expect((await loop.evaluate()).criteria[0]?.detail).toContain('/pair/1 must be number');
    await fs.writeText(`${RUN}/out.json`, JSON.stringify({ pair: ['a', 1], owner: 'me' }));
    expect((await loop.run()).stoppedOn).toBe('complete');
  });
});
