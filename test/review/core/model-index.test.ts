import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DuplicateId, indexById, recordDuplicates } from '../../../src/review/core/model-index.js';

// The plain definition: walk the list, the first definition of an id counts, every later one is a duplicate.
function naive(items: readonly { id: string }[]): { first: Map<string, { id: string }>; duplicates: string[] } {
  const first = new Map<string, { id: string }>();
  const duplicates: string[] = [];
  for (const item of items) {
    if (first.has(item.id)) duplicates.push(item.id);
    else first.set(item.id, item);
  }
  return { first, duplicates };
}

// Lists that are often in ascending id order (the fast path), sometimes with a repeat or a step back appended.
const idLists = fc
  .tuple(
    fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }),
    fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 4 }),
    fc.boolean(),
  )
  .map(([unique, tail, sorted]) => {
    const head = sorted ? [...unique].sort((a, b) => a - b) : unique;
    return [...head, ...tail].map((n, index) => ({ id: `TC-${String(n).padStart(3, '0')}`, index }));
  });

describe('model index', () => {
  it('indexById keeps the first definition and records every later one, in any order', () => {
    fc.assert(
      fc.property(idLists, (items) => {
        const duplicates: DuplicateId[] = [];
        const map = indexById('test_report', items, duplicates);
        const expected = naive(items);
        expect([...map]).toEqual([...expected.first]);
        expect(duplicates).toEqual(expected.duplicates.map((id) => ({ key: 'test_report', id })));
      }),
    );
  });

  it('recordDuplicates records the ids defined again, in list order, ascending or not', () => {
    fc.assert(
      fc.property(idLists, (items) => {
        const duplicates: DuplicateId[] = [];
        recordDuplicates('threat_model', items, duplicates);
        expect(duplicates).toEqual(naive(items).duplicates.map((id) => ({ key: 'threat_model', id })));
      }),
    );
  });

  it('finds a repeat that follows an ascending run', () => {
    const duplicates: DuplicateId[] = [];
    recordDuplicates(
      'test_report',
      ['TC-001', 'TC-002', 'TC-003', 'TC-002'].map((id) => ({ id })),
      duplicates,
    );
    indexById(
      'jira_tickets',
      ['US-001', 'US-002', 'US-001'].map((id) => ({ id })),
      duplicates,
    );
    expect(duplicates).toEqual([
      { key: 'test_report', id: 'TC-002' },
      { key: 'jira_tickets', id: 'US-001' },
    ]);
  });
});
