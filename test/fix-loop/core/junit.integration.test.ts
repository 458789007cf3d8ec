import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJUnitReport } from '../../../src/fix-loop/core/junit.js';

// What node --test --test-reporter=junit writes, read; the reader's cases on written documents are in junit.test.ts.

const ok = (xml: string) => {
  const result = readJUnitReport(xml);
  if (!result.success) throw new Error(result.issues.map((issue) => issue.message).join('; '));
  return result.data;
};

describe('readJUnitReport on node --test --test-reporter=junit', () => {
  let dir = '';
  let xml = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'goal-loop-junit-'));
    await writeFile(
      join(dir, 'sample.test.mjs'),
      [
        "import { describe, test } from 'node:test';",
        "import assert from 'node:assert';",
        "test('adds', () => assert.strictEqual(1 + 1, 2));",
        'test(\'compares <a> & "b"\', () => assert.strictEqual(1 + 1, 3));',
        "test.skip('skipped one', () => {});",
        "test.todo('todo one');",
        "describe('group', () => {",
        "  test('inner pass', () => {});",
        "  test('inner fail', () => { throw new Error('boom'); });",
        '});',
      ].join('\n'),
    );
    const out = join(dir, 'report.xml');
    const args = ['--test', '--test-reporter=junit', `--test-reporter-destination=${out}`, 'sample.test.mjs'];
    // The run fails (two tests fail): its exit code is expected, the report is what is read.
    await promisify(execFile)(process.execPath, args, { cwd: dir }).catch(() => undefined);
    xml = await readFile(out, 'utf8');
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts failed, passed, skipped (todo included) and total', () => {
    expect(ok(xml)).toMatchObject({ failed: 2, passed: 2, skipped: 2, total: 6 });
  });

  it('names each failure with its suite and keeps its message', () => {
    const { failures } = ok(xml);
    expect(failures.map((failure) => failure.name)).toEqual([
      expect.stringContaining('compares <a> & '),
      'group > inner fail',
    ]);
    expect(failures[0]?.message).toContain('2 !== 3');
    expect(failures[1]?.message).toContain('boom');
  });
});
