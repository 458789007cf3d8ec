import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathBeyondDepth } from '../../src/kit/json-depth.js';

// Containers nesting in a value, measured recursively (the reference; only for values shallow enough to recurse).
function nesting(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(nesting));
}

// `{ d: { d: … 1 } }`, `depth` objects deep.
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { d: value };
  return value;
}

describe('pathBeyondDepth', () => {
  it('finds the first container past the limit, in document order, with its path', () => {
    expect(pathBeyondDepth({ a: [{ b: 1 }] }, 2)).toEqual(['a', 0]);
    expect(pathBeyondDepth({ a: [{ b: 1 }] }, 3)).toBeNull();
    expect(pathBeyondDepth({ x: 1, a: [1, [2]], b: [[3]] }, 2)).toEqual(['a', 1]);
    expect(pathBeyondDepth('text', 0)).toBeNull();
    expect(pathBeyondDepth([], 0)).toEqual([]);
  });

  it('measures 100,000 levels without overflowing the call stack', () => {
    const deep = nested(100_000);
    expect(pathBeyondDepth(deep, 100_000)).toBeNull();
    expect(pathBeyondDepth(deep, 99_999)).toHaveLength(99_999);
    expect(pathBeyondDepth(deep, 256)).toEqual(Array.from({ length: 256 }, () => 'd'));
  });

  it('finds a cycle instead of following it forever, and walks a shared subtree once per depth', () => {
    const cycle: Record<string, unknown> = {};
    cycle.left = cycle;
    cycle.right = cycle;
    expect(pathBeyondDepth(cycle, 64)).toHaveLength(64);
    let shared: unknown = 1;
    for (let level = 0; level < 60; level += 1) shared = [shared, shared];
    expect(pathBeyondDepth(shared, 60)).toBeNull();
    expect(pathBeyondDepth(shared, 59)).toHaveLength(59);
  });

  it('agrees with a recursive measure on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.nat(10), (value, limit) => {
        const path = pathBeyondDepth(value, limit);
        expect(path === null).toBe(nesting(value) <= limit);
        if (path !== null) expect(path).toHaveLength(limit);
      }),
    );
  });
});
