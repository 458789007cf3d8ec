import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJUnitReport } from '../../../src/fix-loop/core/junit.js';
import { MAX_FAILURE_MESSAGE_CHARS } from '../../../src/fix-loop/core/test-report.js';

const ok = (xml: string) => {
  const result = readJUnitReport(xml);
  if (!result.success) throw new Error(result.issues.map((issue) => issue.message).join('; '));
  return result.data;
};
const error = (xml: string): string => {
  const result = readJUnitReport(xml);
  expect(result.success).toBe(false);
  return result.issues.map((issue) => issue.message).join('; ');
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

describe('readJUnitReport', () => {
  it('reads nested suites, self-closing cases, failure, error and skipped children', () => {
    const report = ok(`<?xml version="1.0"?>
      <testsuites name="all" tests="99">
        <testsuite name="unit">
          <testcase classname="a" name="one"/>
          <testcase name="two"><failure message="expected 1">stack</failure></testcase>
          <testsuite name="inner">
            <testcase name="three"><error type="TypeError">x is undefined</error></testcase>
            <testcase name="four"><skipped/></testcase>
            <testcase name="five"><system-out>ok</system-out></testcase>
          </testsuite>
        </testsuite>
      </testsuites>`);
    expect(report).toEqual({
      failed: 2,
      passed: 2,
      skipped: 1,
      total: 5,
      failures: [
        { name: 'unit > two', message: 'expected 1' },
        { name: 'unit > inner > three', message: 'x is undefined' },
      ],
    });
  });

  it('reads attributes in any order and either quote, decoding entities', () => {
    const report = ok(
      `<testsuite><testcase time='1' name='a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#65;&#x42;' ><failure type="x" message="m &amp; n"/></testcase></testsuite>`,
    );
    expect(report.failures).toEqual([{ name: `a <b> & "c" 'd' AB`, message: 'm & n' }]);
  });

  it('takes a failure message from CDATA text when there is no message attribute', () => {
    const report = ok('<testsuite><testcase name="t"><failure><![CDATA[a < b & c]]></failure></testcase></testsuite>');
    expect(report.failures[0]?.message).toBe('a < b & c');
  });

  it('counts a failure wins over skipped, and a suite-level error as one failed test', () => {
    const report = ok(
      '<testsuites><testsuite name="s"><testcase name="t"><skipped/><failure message="f"/></testcase></testsuite><testsuite name="broken"><error message="Cannot find module"/></testsuite></testsuites>',
    );
    expect(report).toMatchObject({ failed: 2, skipped: 0, total: 2 });
    expect(report.failures[1]).toEqual({ name: 'broken > (error of the suite)', message: 'Cannot find module' });
  });

  it('does not trust suite attributes', () => {
    expect(ok('<testsuite tests="10" failures="4"><testcase name="a"/></testsuite>')).toMatchObject({
      total: 1,
      failed: 0,
    });
  });

  it('reads an empty suite as zero tests', () => {
    expect(ok('<testsuites/>')).toEqual({ failed: 0, passed: 0, skipped: 0, total: 0, failures: [] });
  });

  it('bounds a long failure message', () => {
    const long = 'x'.repeat(MAX_FAILURE_MESSAGE_CHARS * 3);
    const report = ok(`<testsuite><testcase name="t"><failure>${long}</failure></testcase></testsuite>`);
    expect(report.failures[0]?.message.length).toBe(MAX_FAILURE_MESSAGE_CHARS);
  });

  it('leaves unknown entities and invalid references as written', () => {
    expect(
      ok('<testsuite><testcase name="&nbsp;&#0;&#x110000;&#xD800;"><failure/></testcase></testsuite>').failures[0]
        ?.name,
    ).toBe('&nbsp;&#0;&#x110000;&#xD800;');
  });

  it.each([
    ['', /not a JUnit XML report/],
    ['{"numFailedTests": 1}', /text outside the root element at line 1, column 1/],
    ['<html><body/></html>', /root element is <html>/],
    ['<testsuite><testcase name="a">', /ends inside <testcase> \(is it truncated\?\)/],
    [
      '<testsuite>\n  <testcase name="a"></testsuite>',
      /<\/testsuite> where <\/testcase> was expected at line 2, column 22/,
    ],
    ['<testsuite/><testsuite/>', /a second root element <testsuite>/],
    ['<testsuite><testcase name="a"><testcase name="b"/></testcase></testsuite>', /inside another <testcase>/],
    ['<testsuite name="a', /value of name is not terminated/],
    ['<testsuite name=a>', /quoted value for name/],
    ['<testsuite><!-- open', /comment is not terminated/],
    ['<testsuite>< testcase/></testsuite>', /starts no tag/],
    ['</testsuite>', /closes no open element/],
  ])('fails clearly on %j', (xml, message) => {
    expect(error(xml)).toMatch(message);
    expect(error(xml)).toMatch(/^Not a readable JUnit report: /);
  });
});

describe('readJUnitReport names in deep suites', () => {
  it('keeps the innermost eight suite names', () => {
    const names = Array.from({ length: 10 }, (_, i) => `s${i}`);
    const xml = `${names.map((name) => `<testsuite name="${name}">`).join('')}<testcase name="t"><failure/></testcase>${'</testsuite>'.repeat(10)}`;
    expect(ok(xml).failures[0]?.name).toBe('… > s2 > s3 > s4 > s5 > s6 > s7 > s8 > s9 > t');
  });
});
