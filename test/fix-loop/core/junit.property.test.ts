import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJestJsonReport } from '../../../src/fix-loop/core/jest-json.js';
import { readJUnitReport } from '../../../src/fix-loop/core/junit.js';

const VALID = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testcase name="adds" time="0.1" classname="test"/>
  <testcase name="fails &lt;here&gt;" classname="test"><failure type="x" message="2 !== 3">stack &amp; trace</failure></testcase>
  <testsuite name="group" tests="2"><testcase name="skipped"><skipped/></testcase><testcase name="e"><error><![CDATA[a<b]]></error></testcase></testsuite>
  <!-- tests 4 -->
</testsuites>`;

// A valid report with a few characters deleted, inserted or replaced.
const mutated = fc
  .array(
    fc.record({
      at: fc.nat({ max: VALID.length }),
      cut: fc.nat({ max: 6 }),
      insert: fc.oneof(
        fc.string({ maxLength: 4 }),
        fc.constantFrom('<', '>', '/', '"', "'", '&', '<!--', ']]>', '&#x'),
      ),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((edits) =>
    edits.reduce((text, edit) => text.slice(0, edit.at) + edit.insert + text.slice(edit.at + edit.cut), VALID),
  );

// A result as every parser in the library gives it: success with data, or failure with issues.
function wellFormed(result: ReturnType<typeof readJUnitReport>): void {
  if (result.success) {
    const { failed, passed, skipped, total } = result.data;
    expect(failed + passed + skipped).toBe(total);
  } else {
    expect(result.issues.length).toBeGreaterThan(0);
  }
}

describe('the report readers never throw', () => {
  it('reads the valid sample', () => {
    expect(readJUnitReport(VALID)).toMatchObject({
      success: true,
      data: { failed: 2, passed: 1, skipped: 1, total: 4 },
    });
  });

  it('returns a result for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (text) => {
        wellFormed(readJUnitReport(text));
        expect(() => readJestJsonReport(text)).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });

  it('returns a result for mutated valid XML', () => {
    fc.assert(
      fc.property(mutated, (text) => {
        wellFormed(readJUnitReport(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('returns a result for arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(readJestJsonReport(text).issues).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('reads inputs built to make a naive scanner quadratic, one pass each', () => {
    const n = 200_000;
    const hostile = [
      '<'.repeat(n),
      '<!'.repeat(n),
      '<!--'.repeat(n),
      `<testsuite>${'<testcase name="a"/>'.repeat(n / 10)}</testsuite>`,
      `<testsuite>${'<x>'.repeat(n / 2)}`,
      `<testsuite name="${'&amp'.repeat(n)}">`,
      `<testsuite>${'&#x41;'.repeat(n)}</testsuite>`,
      `<testsuite><testcase name="t"><failure>${'&lt;'.repeat(n)}</failure></testcase></testsuite>`,
      `<testsuite ${'a="1" '.repeat(n / 5)}/>`,
      `<testsuite${' '.repeat(n)}`,
    ];
    for (const text of hostile) wellFormed(readJUnitReport(text));
    expect(readJUnitReport(hostile[3] as string)).toMatchObject({ success: true, data: { total: n / 10 } });
  });

  it('reads a deeply nested document without a stack overflow', () => {
    const depth = 100_000;
    const xml = `<testsuites>${'<testsuite>'.repeat(depth)}<testcase name="deep"/>${'</testsuite>'.repeat(depth)}</testsuites>`;
    expect(readJUnitReport(xml)).toMatchObject({ success: true, data: { passed: 1, total: 1 } });
  });
});
