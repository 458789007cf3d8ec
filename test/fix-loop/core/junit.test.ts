import { describe, expect, it } from 'vitest';
import { readJUnitReport } from '../../../src/fix-loop/core/junit.js';
import { MAX_FAILURE_MESSAGE_CHARS } from '../../../src/fix-loop/core/test-report.js';

// The reader on written documents; junit.integration.test.ts reads what node --test writes.

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

  it('takes a failure message from its whole text, the text of an element inside it included', () => {
    const report = ok(
      '<testsuite><testcase name="t"><failure>expected 2 <error>got 3</error> at sum.js</failure></testcase></testsuite>',
    );
    expect(report.failures).toEqual([{ name: 't', message: 'expected 2 got 3 at sum.js' }]);
  });

  it('reads element and attribute names holding any digit, as XML allows', () => {
    const report = ok('<testsuite><testcase name="t" line0="10"><h09 x1="y"/></testcase></testsuite>');
    expect(report).toMatchObject({ passed: 1, total: 1 });
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
