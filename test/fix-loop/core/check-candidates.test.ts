import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../../src/errors.js';
import { checkFixCandidate, parseFixCandidates } from '../../../src/fix-loop/core/check-candidates.js';

// `{ d: { d: … 1 } }`, `depth` objects deep.
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { d: value };
  return value;
}

const candidate = (description: string, data?: unknown) => ({
  description,
  confidence: 0.5,
  mutationType: 'auto',
  ...(data === undefined ? {} : { data }),
});

describe('candidates nested too deep', () => {
  it.each([1_500, 10_000, 100_000])(
    'a candidate whose data nests %i levels is one too_deep issue at its field, never a stack overflow',
    (depth) => {
      const result = parseFixCandidates([candidate('plain'), candidate('deep', nested(depth))]);
      expect(result.success).toBe(false);
      expect(result.issues.map(formatIssue)).toEqual([
        '$[1].data: The candidate is nested deeper than 256 levels (or holds a cycle)',
      ]);
    },
  );

  it('data nesting up to the limit is accepted as it is', () => {
    const data = nested(254); // the candidate and its data: 255 objects
    expect(checkFixCandidate(candidate('deep', data), 0)).toMatchObject({ success: true, data: { data } });
    expect(checkFixCandidate(candidate('deeper', nested(256)), 3).issues.map(formatIssue)).toEqual([
      '$[3].data: The candidate is nested deeper than 256 levels (or holds a cycle)',
    ]);
  });

  it('a cycle is a too_deep issue too', () => {
    const data: Record<string, unknown> = {};
    data.self = data;
    expect(checkFixCandidate(candidate('loop', data), 0).issues[0]).toMatchObject({
      code: 'too_deep',
      path: [0, 'data'],
    });
  });

  it('one unreadable candidate is its own issue; the others are still checked', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const result = parseFixCandidates([revoked.proxy, candidate('ok'), { ...candidate('bad'), confidence: 2 }]);
    expect(result.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ['unreadable', [0]],
      ['too_big', [2, 'confidence']],
    ]);
  });
});
