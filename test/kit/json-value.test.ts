import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonJsonPlace, readWhole } from '../../src/kit/json-value.js';
import { ThrowingGoal, trapProxy } from './hostile-values.js';

// Replaces the value at `path` inside `json` (a copy), or returns null when the path leads nowhere.
function placed(json: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  if (typeof json !== 'object' || json === null) return null;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(json) ? [...json] : { ...json }) as Record<string | number, unknown>;
  if (!(key in copy)) return null;
  const inner = placed(copy[key], rest, value);
  if (inner === null && rest.length > 0) return null;
  copy[key] = inner;
  return copy;
}

// Every path of a JSON value, the root first.
function pathsOf(json: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof json !== 'object' || json === null) return [at];
  const entries = Array.isArray(json) ? json.map((item, index) => [index, item] as const) : Object.entries(json);
  return [at, ...entries.flatMap(([key, item]) => pathsOf(item, [...at, key]))];
}

describe('nonJsonPlace', () => {
  it('finds nothing in a JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        expect(nonJsonPlace(json)).toBeNull();
      }),
    );
  });

  it('finds what JSON cannot hold, at its path', () => {
    const bad = fc.constantFrom<[unknown, string]>(
      [() => 1, 'a function'],
      [undefined, 'undefined'],
      [Number.NaN, 'NaN'],
      [Number.NEGATIVE_INFINITY, '-Infinity'],
      [10n, 'a bigint'],
      [Symbol('s'), 'a symbol'],
      [new Map(), 'a Map'],
      [new Date(0), 'a Date'],
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.nat(), bad, (json, pick, [value, what]) => {
        const paths = pathsOf(json);
        const path = paths[pick % paths.length] ?? [];
        // A key `__proto__` cannot be set as an own property of a copy: such a path is not a case.
        if (path.includes('__proto__')) return;
        expect(nonJsonPlace(placed(json, path, value))).toEqual({ path, what });
      }),
    );
  });

  it('takes the first place depth first, in key order, and names a cycle', () => {
    expect(nonJsonPlace({ a: [1, { b: undefined }], c: Number.NaN })).toEqual({
      path: ['a', 1, 'b'],
      what: 'undefined',
    });
    const cyclic: Record<string, unknown> = { a: { b: {} } };
    (cyclic.a as { b: Record<string, unknown> }).b.c = cyclic;
    expect(nonJsonPlace(cyclic)).toEqual({ path: ['a', 'b', 'c'], what: 'a cycle (an object inside itself)' });
    // One object twice, not inside itself, is JSON (it is written twice).
    const shared = { x: 1 };
    expect(nonJsonPlace({ a: shared, b: [shared] })).toBeNull();
    expect(nonJsonPlace(Object.create(null))).toBeNull();
    class Item {}
    expect(nonJsonPlace({ a: new Item() })).toEqual({ path: ['a'], what: 'an Item' });
  });

  it('walks any depth without a stack overflow', () => {
    let deep: unknown = () => 1;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(nonJsonPlace(deep)).toMatchObject({ what: 'a function' });
    expect(nonJsonPlace(deep)?.path).toHaveLength(200_000);
  });
});

describe('readWhole', () => {
  it('copies what reads whole, equal to it: JSON, and cycles kept as cycles', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        expect(readWhole(json)).toEqual({ ok: true, value: json });
      }),
    );
    const cyclic: Record<string, unknown> = { a: [1] };
    cyclic.self = cyclic;
    const read = readWhole(cyclic);
    const copy = (read.ok ? read.value : null) as Record<string, unknown>;
    expect(copy).not.toBe(cyclic);
    expect(copy.self).toBe(copy);
    expect(copy.a).toEqual([1]);
  });

  it('refuses what JSON cannot hold at its path, and never calls a proxy trap for keys the value does not list', () => {
    const trap = trapProxy();
    expect(readWhole({ trap })).toEqual({ ok: true, value: { trap: {} } });
    expect(readWhole({ list: [1, { at: new ThrowingGoal() }] })).toEqual({
      ok: false,
      kind: 'not_json',
      path: ['list', 1, 'at'],
      what: 'a ThrowingGoal',
    });
    expect(readWhole({ when: new Date(0) })).toMatchObject({ kind: 'not_json', path: ['when'], what: 'a Date' });
  });

  it('keeps a __proto__ key as an own field, and an object of another realm as plain', async () => {
    const json = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as Record<string, unknown>;
    const read = readWhole(json);
    expect(read).toEqual({ ok: true, value: json });
    const copy = (read.ok ? read.value : null) as object;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'y']);
    const { runInNewContext } = await import('node:vm');
    expect(readWhole(runInNewContext('({ a: [1, { b: 2 }] })'))).toEqual({ ok: true, value: { a: [1, { b: 2 }] } });
  });

  it('names what reading threw, however deep', () => {
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new RangeError('no x');
      },
    });
    let deep: unknown = getter;
    for (let level = 0; level < 100_000; level++) deep = { a: deep };
    expect(readWhole(deep)).toEqual({ ok: false, kind: 'threw', reason: 'RangeError: no x' });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(readWhole({ list: [1, proxy] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^TypeError: .*revoked/),
    });
  });
});
