// Normalizing a list of names: the list itself when nothing changes, a new list (the input untouched) otherwise.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizedItems } from '../../../src/review/contracts/metadata.js';

const trim = (name: string): string => name.trim();

describe('normalizedItems', () => {
  it('returns the list itself when every item is already normal', () => {
    const names = ['users', 'orders'];
    expect(normalizedItems(names, trim)).toBe(names);
    const none: string[] = [];
    expect(normalizedItems(none, trim)).toBe(none);
  });

  it('returns a new list when an item changes, leaving the input as it was', () => {
    const names = ['users', ' orders ', 'items '];
    const normal = normalizedItems(names, trim);
    expect(normal).toEqual(['users', 'orders', 'items']);
    expect(names).toEqual(['users', ' orders ', 'items ']);
  });

  it('equals mapping every item, for any list', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', ' a', 'b ', 'c', ' ', '')), (names) => {
        const before = [...names];
        expect(normalizedItems(names, trim)).toEqual(names.map(trim));
        expect(names).toEqual(before);
      }),
    );
  });
});
