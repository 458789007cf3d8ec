import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnIndex, columnValues, idSpace, linkColumn, ownerCount } from '../../../src/review/core/link-table.js';

// The plain definition of an index by referenced id: walk the owners in order, append each owner's value under every
// id it names unless it is the value that id got last; keys in first-seen order.
function naiveIndex(lists: readonly (readonly string[])[], values: readonly string[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  lists.forEach((ids, owner) => {
    for (const id of ids) {
      const list = index.get(id) ?? [];
      if (list[list.length - 1] !== values[owner]) list.push(values[owner] as string);
      index.set(id, list);
    }
  });
  return index;
}

// Owners naming ids from a small pool (so ids repeat within and across owners), some owners sharing a value.
const owners = fc.array(
  fc.record({
    ids: fc.array(fc.constantFrom('FR-1', 'FR-2', 'US-1', 'US-2', 'X'), { maxLength: 4 }),
    value: fc.constantFrom('a.ts', 'b.ts', 'c.ts'),
  }),
  { maxLength: 12 },
);
// A few owners with long lists (past the scan limit, so repeats are found with a set), ids from a pool of 30.
const longOwners = fc.array(
  fc.record({
    ids: fc.array(
      fc.integer({ min: 1, max: 30 }).map((n) => `US-${n}`),
      { minLength: 17, maxLength: 60 },
    ),
    value: fc.constantFrom('a.ts', 'b.ts'),
  }),
  { maxLength: 3 },
);
const predefined = fc.uniqueArray(fc.constantFrom('FR-1', 'FR-2', 'FR-3', 'US-1'), { maxLength: 4 });

describe('link columns', () => {
  it('index every id exactly as a map of growing lists does: same keys in the same order, same values', () => {
    fc.assert(
      fc.property(predefined, fc.oneof(owners, longOwners), (defined, list) => {
        const space = idSpace(defined);
        const lists = list.map((owner) => owner.ids);
        const values = list.map((owner) => owner.value);
        const column = linkColumn(space, lists, values);
        const naive = naiveIndex(lists, values);
        expect([...columnIndex(space, column)]).toEqual([...naive]);
        expect(Array.from(column.keys, (ordinal) => space.ids[ordinal])).toEqual([...naive.keys()]);
      }),
    );
  });

  it('count each owner once per id it names, and nothing for an id it does not name', () => {
    fc.assert(
      fc.property(predefined, fc.oneof(owners, longOwners), (defined, list) => {
        const space = idSpace(defined);
        const column = linkColumn(
          space,
          list.map((owner) => owner.ids),
          list.map((owner) => owner.value),
        );
        for (const id of [...space.ids, 'NEVER']) {
          const ordinal = space.ordinals.get(id) ?? -1;
          const naming = list.filter((owner) => (owner.ids as readonly string[]).includes(id)).length;
          expect(ownerCount(column, ordinal)).toBe(naming);
        }
      }),
    );
  });

  it('give the ids defined first the first ordinals, and intern a new id once whichever column names it', () => {
    const space = idSpace(['FR-2', 'FR-1', 'FR-2']);
    const first = linkColumn(space, [['US-9', 'FR-1'], ['US-9']], ['a', 'b']);
    const second = linkColumn(space, [['US-9', 'NEW']], ['c']);
    expect(space.ids).toEqual(['FR-2', 'FR-1', 'US-9', 'NEW']);
    expect(columnValues(first, 2)).toEqual(['a', 'b']);
    expect(columnValues(second, 2)).toEqual(['c']);
    // An ordinal interned after a column was built is named by none of its owners.
    expect(ownerCount(first, 3)).toBe(0);
    expect(columnValues(first, 3)).toEqual([]);
  });
});
