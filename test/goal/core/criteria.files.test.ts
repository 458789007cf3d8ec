import { describe, expect, it } from 'vitest';
import { evaluate, fileExists, jsonSchema, present, schemaChecked } from './fixtures.js';

describe('file_exists', () => {
  it('passes for a file or a directory', () => {
    expect(evaluate(fileExists('doc'), present('file')).status).toBe('PASS');
    expect(evaluate(fileExists('doc'), present('directory')).status).toBe('PASS');
  });

  it('fails for missing, refused or other entries, with the detail', () => {
    expect(
      evaluate(fileExists('doc'), { kind: 'file_exists', path: { state: 'missing', path: 'doc.json' } }),
    ).toMatchObject({ status: 'FAIL', detail: 'doc.json does not exist.' });
    const refused = evaluate(fileExists('doc', '../etc/passwd'), {
      kind: 'file_exists',
      path: { state: 'refused', detail: 'it escapes the project root' },
    });
    expect(refused.status).toBe('FAIL');
    expect(refused.detail).toContain('escapes the project root');
    expect(evaluate(fileExists('doc'), present('other')).status).toBe('FAIL');
  });

  it('keeps the rerun stages', () => {
    expect(evaluate(fileExists('doc', 'd.json', ['03-documentation']), present()).rerunStages).toEqual([
      '03-documentation',
    ]);
  });
});

describe('json_schema', () => {
  it('passes when valid and fails with the first errors', () => {
    expect(evaluate(jsonSchema('api'), schemaChecked(true)).status).toBe('PASS');
    const result = evaluate(jsonSchema('api'), schemaChecked(false, ['/ must have endpoints', 'e2', 'e3', 'e4']));
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('/ must have endpoints; e2; e3 (and 1 more)');
  });

  it('fails when the document is unavailable', () => {
    expect(
      evaluate(jsonSchema('api'), {
        kind: 'json_schema',
        outcome: { state: 'unavailable', detail: 'api.json is missing' },
      }).status,
    ).toBe('FAIL');
  });
});
