import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonSchemaChecker, jsonSchemaDialect } from '../../src/runtime/json-schema-check.js';

const SCHEMAS = join(import.meta.dirname, '../../schemas');
const shipped = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8'));

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

describe('JsonSchemaChecker: the dialect follows $schema', () => {
  it('compiles every schema this package ships (2020-12), and validates goal.json against its own schema', () => {
    const files = [
      ...readdirSync(SCHEMAS).filter((file) => file.endsWith('.json')),
      ...readdirSync(join(SCHEMAS, 'stages')).map((file) => `stages/${file}`),
    ];
    expect(files.length).toBeGreaterThan(5);
    const checker = new JsonSchemaChecker();
    for (const file of files) {
      expect(shipped(file).$schema, file).toBe(DRAFT_2020);
      expect(checker.compileError(shipped(file)), file).toBeUndefined();
    }
    const goalSchema = shipped('goal.schema.json');
    const goal = { schema_version: 1, criteria: [{ id: 'a', kind: 'file_exists', path: 'x' }] };
    expect(checker.check(goal, goalSchema)).toEqual({ state: 'checked', valid: true, errors: [] });
    const wrong = checker.check({ schema_version: 2, criteria: [] }, goalSchema);
    expect(wrong).toMatchObject({ state: 'checked', valid: false });
    expect(wrong.state === 'checked' && wrong.errors.join('; ')).toContain('/schema_version');
  });

  it('2020-12 (declared or by default) enforces unevaluatedProperties, naming the extra property', () => {
    const checker = new JsonSchemaChecker();
    const closed = {
      type: 'object',
      allOf: [{ properties: { name: { type: 'string' } } }],
      unevaluatedProperties: false,
    };
    for (const schema of [closed, { $schema: DRAFT_2020, ...closed }]) {
      expect(checker.check({ name: 'x' }, schema)).toMatchObject({ valid: true });
      expect(checker.check({ name: 'x', extra: 1 }, schema)).toEqual({
        state: 'checked',
        valid: false,
        errors: ['/ must NOT have unevaluated properties ("extra")'],
      });
    }
    // prefixItems is a 2020-12 keyword.
    const pair = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
    expect(checker.check(['a', 1], pair)).toMatchObject({ valid: true });
    expect(checker.check(['a', 'b'], pair)).toMatchObject({ valid: false });
  });

  it('2019-09 enforces unevaluatedProperties and dependentRequired', () => {
    const checker = new JsonSchemaChecker();
    const schema = {
      $schema: DRAFT_2019,
      type: 'object',
      properties: { card: { type: 'string' }, billing: { type: 'string' } },
      dependentRequired: { card: ['billing'] },
      unevaluatedProperties: false,
    };
    expect(checker.check({ card: '1', billing: 'x' }, schema)).toMatchObject({ valid: true });
    expect(checker.check({ card: '1' }, schema)).toMatchObject({ valid: false });
    expect(checker.check({ billing: 'x', other: 1 }, schema)).toMatchObject({ valid: false });
  });

  it('draft-07 keeps its own semantics: tuple items, definitions and dependencies', () => {
    const checker = new JsonSchemaChecker();
    const schema = {
      $schema: DRAFT_07,
      definitions: { name: { type: 'string', minLength: 1 } },
      type: 'object',
      properties: { pair: { type: 'array', items: [{ $ref: '#/definitions/name' }, { type: 'number' }] } },
      dependencies: { pair: ['owner'] },
    };
    expect(checker.check({ pair: ['a', 1], owner: 'me' }, schema)).toMatchObject({ valid: true });
    expect(checker.check({ pair: ['', 1], owner: 'me' }, schema)).toMatchObject({ valid: false });
    expect(checker.check({ pair: ['a', 1] }, schema)).toMatchObject({ valid: false });
    // The same tuple form is not a 2020-12 schema: there it does not compile.
    const { $schema: _draft, ...undeclared } = schema;
    expect(checker.compileError(undeclared)).toMatch(/\(2020-12\) does not compile/);
  });

  it('reads $schema with http or https and with or without an empty fragment', () => {
    for (const uri of [
      'http://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft-07/schema#',
    ])
      expect(jsonSchemaDialect({ $schema: uri })).toEqual({ dialect: 'draft-07' });
    expect(jsonSchemaDialect({ $schema: 'http://json-schema.org/draft/2019-09/schema#' })).toEqual({
      dialect: '2019-09',
    });
    expect(jsonSchemaDialect({ $schema: `${DRAFT_2020}#` })).toEqual({ dialect: '2020-12' });
    expect(jsonSchemaDialect({ type: 'object' })).toEqual({ dialect: '2020-12' });
    expect(jsonSchemaDialect(true)).toEqual({ dialect: '2020-12' });
    const checker = new JsonSchemaChecker();
    expect(checker.check({}, { $schema: 'https://json-schema.org/draft-07/schema', type: 'object' })).toMatchObject({
      valid: true,
    });
  });

  it('an unsupported or malformed $schema is a schema error that says what is supported', () => {
    const checker = new JsonSchemaChecker();
    expect(checker.check({}, { $schema: 'http://json-schema.org/draft-04/schema#' })).toEqual({
      state: 'schema_error',
      detail:
        'the JSON Schema does not compile: unsupported "$schema" "http://json-schema.org/draft-04/schema#" (supported: draft-07, 2019-09, 2020-12)',
    });
    expect(checker.compileError({ $schema: 7 })).toBe('the JSON Schema does not compile: "$schema" must be a string');
    expect(checker.compileError([])).toBe('the JSON Schema must be an object or a boolean');
  });
});

describe('JsonSchemaChecker: the same input gives the same result', () => {
  it('a schema that does not compile gives the same error every time, whatever was compiled in between', () => {
    const checker = new JsonSchemaChecker();
    const broken = { $id: 'https://example.com/broken.json', type: 'object', properties: { a: { type: 'nope' } } };
    const first = checker.check({ a: 1 }, broken);
    expect(first.state).toBe('schema_error');
    expect(first.state === 'schema_error' && first.detail).toMatch(/^the JSON Schema \(2020-12\) does not compile: /);
    checker.check({}, shipped('goal.schema.json'));
    checker.check({}, { $id: 'https://example.com/broken.json', type: 'object' });
    expect(checker.check({ a: 1 }, structuredClone(broken))).toEqual(first);
    expect(new JsonSchemaChecker().check({ a: 1 }, broken)).toEqual(first);
  });

  it('schemas sharing an $id (one edited between evaluations) never clash', () => {
    const checker = new JsonSchemaChecker();
    const v1 = { $id: 'https://example.com/s.json', type: 'object', required: ['a'] };
    const v2 = { $id: 'https://example.com/s.json', type: 'object', required: ['b'] };
    for (let round = 0; round < 2; round += 1) {
      expect(checker.check({ a: 1 }, v1)).toMatchObject({ state: 'checked', valid: true });
      expect(checker.check({ a: 1 }, v2)).toMatchObject({ state: 'checked', valid: false });
    }
  });

  it('a schema is compiled once per content, key order aside', () => {
    const checker = new JsonSchemaChecker();
    const a = { type: 'object', required: ['x'], properties: { x: { type: 'number' } } };
    const b = { properties: { x: { type: 'number' } }, required: ['x'], type: 'object' };
    const results = [checker.check({ x: 'no' }, a), checker.check({ x: 'no' }, b), checker.check({ x: 'no' }, a)];
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(results[0]).toEqual({ state: 'checked', valid: false, errors: ['/x must be number'] });
  });
});

describe('JsonSchemaChecker: patterns run on RE2', () => {
  it('refuses a backreference or a lookaround when the schema is read, in pattern and patternProperties alike', () => {
    const checker = new JsonSchemaChecker();
    const refused: [string, string][] = [
      ['^(a)\\1$', 'the backreference "\\1"'],
      ['^(?<w>a)\\k<w>$', 'the backreference "\\k<w>"'],
      ['^(?=a)\\w+$', 'the lookahead "(?="'],
      ['^(?!a)\\w+$', 'the negative lookahead "(?!"'],
      ['(?<=a)b', 'the lookbehind "(?<="'],
      ['(?<!a)b', 'the negative lookbehind "(?<!"'],
    ];
    for (const [pattern, construct] of refused) {
      const inProperty = checker.compileError({ properties: { name: { type: 'string', pattern } } });
      expect(inProperty).toContain(`pattern ${JSON.stringify(pattern)} holds ${construct}`);
      expect(checker.check({}, { patternProperties: { [pattern]: {} } })).toMatchObject({ state: 'schema_error' });
    }
  });

  it('compiles the shapes a backtracking engine takes exponential time on, and gives the right result', () => {
    const checker = new JsonSchemaChecker();
    const cases: [string, string, string][] = [
      ['^(a+)+$', 'aaaa', `${'a'.repeat(40)}!`],
      ['^(\\w|\\d)+$', 'a1b2', `${'1'.repeat(40)}!`],
      ['^(ab|ac)+$', 'abac', 'abad'],
      ['^[a-z]+(-[a-z]+)*$', 'abc-def', 'abc-'],
      ['^(\\d+\\.)+\\d+$', '1.2.3', '1..2'],
      ['^(\\r\\n|\\n)+$', '\r\n\n', '\r'],
      ['^(.+\\n)*.+$', 'a\nbc', 'a\n\nb'],
    ];
    for (const [pattern, valid, invalid] of cases) {
      const schema = { type: 'string', pattern };
      expect(checker.check(valid, schema), pattern).toMatchObject({ state: 'checked', valid: true });
      expect(checker.check(invalid, schema), pattern).toMatchObject({ state: 'checked', valid: false });
    }
  });
});
