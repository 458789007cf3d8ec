import { describe, expect, it } from 'vitest';
import { pushAll, recordFromEntries } from '../../src/kit/record.js';

describe('recordFromEntries', () => {
  it('is Object.fromEntries: a plain object, own keys in order, the last duplicate wins, __proto__ an own key', () => {
    const entries: [string, number][] = [
      ['b', 1],
      ['a', 2],
      ['__proto__', 3],
      ['constructor', 4],
      ['b', 5],
      ['10', 6],
    ];
    const record = recordFromEntries(entries);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(Object.keys(Object.fromEntries(entries)));
    expect(JSON.stringify(record)).toBe(JSON.stringify(Object.fromEntries(entries)));
    expect(Object.hasOwn(record, '__proto__')).toBe(true);
    expect(record.b).toBe(5);
    expect(record).toStrictEqual(Object.fromEntries(entries));
  });

  it('holds ten thousand keys', () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => [`key-${i}`, i] as const);
    const record = recordFromEntries(entries(10_000));
    expect(Object.keys(record)).toHaveLength(10_000);
    expect(record['key-9999']).toBe(9999);
  });
});

describe('pushAll', () => {
  it('appends in order, past the argument limit of push(...items), and returns the target', () => {
    const target = [-1];
    const items = Array.from({ length: 300_000 }, (_, index) => index);
    expect(() => target.push(...items)).toThrow(RangeError);
    target.length = 1;
    expect(pushAll(target, items)).toBe(target);
    expect(target).toHaveLength(300_001);
    expect(target[0]).toBe(-1);
    expect(target[300_000]).toBe(299_999);
    expect(pushAll([1], new Set([2, 3]))).toEqual([1, 2, 3]);
  });
});
