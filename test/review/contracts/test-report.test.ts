// Reading test_report.json: a canonical test case is already normal, so it is kept as the very object read.
import { describe, expect, it } from 'vitest';
import { readTestReport } from '../../../src/review/contracts/test-report.js';

describe('readTestReport', () => {
  it('keeps each canonical test case as read, extra fields and all, and leaves the document as it was', () => {
    const cases = [
      { id: 'TC-001', story_ids: ['US-001'], requirement_ids: [], status: 'passed', duration_ms: 4 },
      { id: 'TC-002', story_ids: [], requirement_ids: ['NFR-001'], controls: ['SC-001'], status: 'failed' },
    ];
    const before = structuredClone(cases);
    const read = readTestReport({ test_cases: cases });
    if (!read.ok) throw new Error(JSON.stringify(read.issues));
    expect(read.value.tests).toBe(cases);
    expect(cases).toEqual(before);
  });
});
