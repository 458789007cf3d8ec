import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, fnv1a64, hashJson } from '../../src/kit/hash.js';

// Reference FNV-1a 64 over UTF-8 bytes with BigInt, to check the limb arithmetic.
function reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

describe('fnv1a64', () => {
  it('matches the published test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('matches a BigInt reference on any string, including non-ASCII and lone surrogates', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => fnv1a64(text) === reference(text)));
    expect(fnv1a64('é🙂\ud800')).toBe(reference('é🙂\ud800'));
  });

  it('is 16 hex digits', () => {
    fc.assert(fc.property(fc.string(), (text) => /^[0-9a-f]{16}$/.test(fnv1a64(text))));
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined properties', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('writes non-finite numbers and undefined items as null and -0 as 0', () => {
    expect(canonicalJson([Number.NaN, Number.POSITIVE_INFINITY, undefined, -0])).toBe('[null,null,null,0]');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('agrees with JSON.parse round trips and key order does not matter', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
    expect(hashJson({ a: 1, b: 2 })).toBe(hashJson({ b: 2, a: 1 }));
  });

  it('writes values nested 100,000 deep, with the same rules below the recursion limit and beyond it', () => {
    const depth = 100_000;
    const text = `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`;
    const value = JSON.parse(text) as unknown;
    expect(canonicalJson(value)).toBe(text);
    expect(hashJson(value)).toBe(fnv1a64(text));
    let mixed: unknown = { z: -0, u: undefined, f: () => 1 };
    for (let level = 0; level < 1_000; level += 1) mixed = level % 2 === 0 ? [mixed, undefined] : { b: mixed, a: null };
    const mixedText = canonicalJson(mixed);
    expect(mixedText).toMatch(/^\{"a":null,"b":\[\{"a":null,"b":\[/);
    expect(mixedText).toContain('[{"z":0},null]');
    expect(canonicalJson(JSON.parse(mixedText))).toBe(mixedText);
  });

  it('agrees with JSON.parse round trips on deep generated values too', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 400 }), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 50 },
    );
  });

  it('throws a TypeError on a circular value instead of looping', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { again: cycle };
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
  });
});
