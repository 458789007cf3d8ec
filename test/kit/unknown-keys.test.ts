import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestKey, unknownKeyIssue, unknownKeyIssuesAt, unknownKeys } from '../../src/kit/unknown-keys.js';

const KNOWN = ['fs', 'runDir', 'lockTimeoutMs', 'maxIterations', 'onListenerError', 'onEvent', 'stageTimeoutMs'];

describe('closestKey', () => {
  it.each([
    ['lockTimeoutMS', 'lockTimeoutMs'],
    ['LOCKTIMEOUTMS', 'lockTimeoutMs'],
    ['maxIteration', 'maxIterations'],
    ['onListenerErorr', 'onListenerError'],
    ['rundir', 'runDir'],
    ['runDr', 'runDir'],
    ['fss', 'fs'],
    ['lockTimeout', 'lockTimeoutMs'],
    // Two swapped pairs: two edits with transpositions, four without.
    ['rnuDri', 'runDir'],
    ['lcokTimeoutSM', 'lockTimeoutMs'],
    ['onEvnt', 'onEvent'],
  ])('suggests, for %s, the known key %s', (key, expected) => {
    expect(closestKey(key, KNOWN)).toBe(expected);
  });

  it.each([
    ['commandTimeoutMS'],
    ['x'],
    ['ab'],
    [''],
    ['lockTime'],
    ['onEventXYZ'],
    ['runDxxx'],
    ['somethingElseEntirely'],
  ])('suggests nothing for %j: no known key within edit distance 2 (and under its length)', (key) => {
    expect(closestKey(key, KNOWN)).toBeUndefined();
  });

  it('prefers the nearest key, then the first listed', () => {
    expect(closestKey('stageTimeoutMx', ['stageTimeoutM', 'stageTimeoutMs'])).toBe('stageTimeoutM');
    expect(closestKey('abcd', ['abcx', 'abcy'])).toBe('abcx');
  });

  it('finds a known key (of 5 characters or more) with up to two characters deleted, and suggests only known keys', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KNOWN), fc.array(fc.nat(), { maxLength: 2 }), (known, cuts) => {
        // Deleting up to two characters from a known key of length ≥ 5 is always within reach of that key.
        let key = known;
        for (const cut of cuts) key = key.slice(0, cut % key.length) + key.slice((cut % key.length) + 1);
        const suggestion = closestKey(key, KNOWN);
        if (known.length >= 5) expect(suggestion).toBeDefined();
        if (suggestion !== undefined) expect(KNOWN).toContain(suggestion);
      }),
    );
  });
});

describe('unknownKeys', () => {
  it('lists the own keys not known, with their path and suggestion; values are not looked at', () => {
    const options = { fs: new Map(), lockTimeoutMS: 5, onEvent: () => undefined, extra: class {} };
    expect(unknownKeys(options, KNOWN, ['options'])).toEqual([
      { key: 'lockTimeoutMS', path: ['options', 'lockTimeoutMS'], suggestion: 'lockTimeoutMs' },
      { key: 'extra', path: ['options', 'extra'], suggestion: undefined },
    ]);
  });

  it('finds nothing in a value that is not an object (the caller schema refuses it), nor inherited keys', () => {
    for (const value of [null, undefined, 3, 'fs', [1, 2]]) expect(unknownKeys(value, KNOWN)).toEqual([]);
    expect(unknownKeys(Object.create({ inherited: 1 }), KNOWN)).toEqual([]);
  });

  it('finds every extra key and nothing else (property)', () => {
    fc.assert(
      fc.property(
        fc.subarray(KNOWN),
        fc.uniqueArray(
          fc.string().filter((key) => !KNOWN.includes(key)),
          { maxLength: 4 },
        ),
        (present, extra) => {
          const value: Record<string, unknown> = {};
          for (const key of [...present, ...extra]) Object.defineProperty(value, key, { value: 1, enumerable: true });
          expect(unknownKeys(value, KNOWN).map((unknown) => unknown.key)).toEqual(
            Object.keys(value).filter((key) => extra.includes(key)),
          );
          expect(new Set(unknownKeys(value, KNOWN).map((unknown) => unknown.key))).toEqual(new Set(extra));
        },
      ),
    );
  });
});

describe('unknownKeyIssue', () => {
  it('names the key and the suggestion, with code unrecognized_keys', () => {
    expect(unknownKeyIssue({ key: 'maxIteration', path: ['maxIteration'], suggestion: 'maxIterations' })).toEqual({
      code: 'unrecognized_keys',
      path: ['maxIteration'],
      message: 'unknown option `maxIteration`; did you mean `maxIterations`?',
    });
    expect(unknownKeyIssue({ key: 'x', path: ['x'], suggestion: undefined }).message).toBe('unknown option `x`');
  });
});

describe('unknownKeyIssuesAt', () => {
  it("splits an object's unknown keys into one issue per key at its own path, each with its own suggestion", () => {
    expect(unknownKeyIssuesAt(['goalType', 'colour'], ['criteria', 2], ['goal', 'goal_type'])).toEqual([
      {
        code: 'unrecognized_keys',
        path: ['criteria', 2, 'goalType'],
        message: 'unknown key `goalType`; did you mean `goal_type`?',
      },
      { code: 'unrecognized_keys', path: ['criteria', 2, 'colour'], message: 'unknown key `colour`' },
    ]);
  });

  it('gives one issue per key, at the object path plus the key, suggesting only known keys (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 3 }), (keys, base) => {
        const issues = unknownKeyIssuesAt(keys, base, KNOWN);
        expect(issues.map((issue) => issue.path)).toEqual(keys.map((key) => [...base, key]));
        issues.forEach((issue, index) => {
          const suggestion = closestKey(keys[index] ?? '', KNOWN);
          expect(issue.message.endsWith(suggestion === undefined ? '`' : `did you mean \`${suggestion}\`?`)).toBe(true);
        });
      }),
    );
  });
});
