import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../../src/errors.js';
import type { FixCandidate } from '../../../src/fix-loop/contracts/candidate.js';
import { candidateHash, selectCandidate } from '../../../src/fix-loop/core/candidates.js';
import { parseFixCandidates } from '../../../src/fix-loop/core/check-candidates.js';
import { fnv1a64 } from '../../../src/kit/hash.js';
import { candidate } from './fixtures.js';

const chosen = (candidates: readonly FixCandidate[], tried: readonly string[] = []): string => {
  const selection = selectCandidate(candidates, tried);
  return selection.kind === 'apply' ? selection.candidate.description : `escalate:${selection.reason}`;
};

describe('candidateHash', () => {
  it('is the FNV-1a hash of the description alone', () => {
    expect(candidateHash(candidate('add the import', 0.2))).toBe(fnv1a64('add the import'));
    const withPatch: FixCandidate = { ...candidate('add the import', 0.9, true), patch: 'diff' };
    expect(candidateHash(withPatch)).toBe(fnv1a64('add the import'));
    expect(candidateHash(candidate('add the import.', 0.2))).not.toBe(fnv1a64('add the import'));
  });
});

describe('selectCandidate', () => {
  it('selects the highest confidence', () => {
    expect(chosen([candidate('a', 0.4), candidate('b', 0.9), candidate('c', 0.6)])).toBe('b');
  });

  it('skips a candidate already tried (by the hash of its description)', () => {
    const tried = [candidateHash(candidate('b', 0))];
    expect(chosen([candidate('a', 0.4), candidate('b', 0.9), candidate('c', 0.6)], tried)).toBe('c');
  });

  it('skips a tried candidate proposed again with another confidence', () => {
    const tried = [candidateHash(candidate('b', 0))];
    expect(chosen([candidate('b', 1), candidate('a', 0.1)], tried)).toBe('a');
  });

  it('escalates all_auto_tried when every candidate was tried', () => {
    const all = [candidate('a', 0.4), candidate('b', 0.9)];
    const selection = selectCandidate(all, all.map(candidateHash));
    expect(selection).toMatchObject({ kind: 'escalate', reason: 'all_auto_tried', manualCandidates: [] });
    expect(selection.rationale).toContain('2 proposed');
  });

  it('counts duplicates of a description once: in what is left, and among the manual candidates', () => {
    const twice = [candidate('a', 0.9), candidate('a', 0.8), candidate('b', 0.5)];
    expect(selectCandidate(twice, []).rationale).toContain('of 2 left');
    const manual = [candidate('m', 0.9, true), candidate('m', 0.7, true), candidate('a', 0.5)];
    expect(selectCandidate(manual, []).manualCandidates).toEqual([candidate('m', 0.9, true)]);
  });

  it('escalates all_auto_tried on an empty list', () => {
    expect(selectCandidate([], [])).toMatchObject({ kind: 'escalate', reason: 'all_auto_tried' });
    expect(selectCandidate([], []).rationale).toContain('no fix');
  });

  it('escalates manual_required when the top candidate is manual, never applying it', () => {
    const selection = selectCandidate([candidate('edit the CI secret', 0.95, true), candidate('a', 0.5)], []);
    expect(selection).toMatchObject({ kind: 'escalate', reason: 'manual_required' });
    expect(selection.manualCandidates.map((c) => c.description)).toEqual(['edit the CI secret']);
  });

  it('escalates manual_required when only manual candidates are left', () => {
    const tried = [candidateHash(candidate('a', 0))];
    expect(chosen([candidate('a', 0.9), candidate('m', 0.1, true)], tried)).toBe('escalate:manual_required');
  });

  it('applies an automatic candidate above a manual one, and returns the manual ones for the report', () => {
    const selection = selectCandidate(
      [candidate('m2', 0.3, true), candidate('a', 0.8), candidate('m1', 0.6, true)],
      [],
    );
    expect(selection.kind).toBe('apply');
    expect(selection.manualCandidates.map((c) => c.description)).toEqual(['m1', 'm2']);
  });

  it('breaks a confidence tie by description, whatever the order given', () => {
    const tie = [candidate('zeta', 0.7), candidate('alpha', 0.7), candidate('mid', 0.7)];
    expect(chosen(tie)).toBe('alpha');
    expect(chosen([...tie].reverse())).toBe('alpha');
  });

  it('breaks a tie on the same description manual first, so a conflict goes to a human', () => {
    expect(chosen([candidate('x', 0.7), candidate('x', 0.7, true)])).toBe('escalate:manual_required');
    expect(chosen([candidate('x', 0.7, true), candidate('x', 0.7)])).toBe('escalate:manual_required');
  });

  it('returns the hash of what it applies, for the tried list', () => {
    const selection = selectCandidate([candidate('a', 0.5)], []);
    expect(selection.kind === 'apply' && selection.hash).toBe(candidateHash(candidate('a', 0)));
  });

  it('gives the same selection, which survives a JSON round trip, for any order of the same candidates', () => {
    const anyCandidate = fc.record({
      description: fc.constantFrom('a', 'b', 'c', 'd'),
      confidence: fc.constantFrom(0, 0.5, 0.5, 1),
      mutationType: fc.constantFrom('auto' as const, 'manual' as const),
      patch: fc.option(fc.constantFrom('p1', 'p2'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(anyCandidate, { maxLength: 8 }), fc.array(fc.constantFrom('a', 'c')), (list, names) => {
        const clean = list.map(({ patch, ...rest }) => (patch === undefined ? rest : { ...rest, patch }));
        const tried = names.map((description) => candidateHash({ description }));
        const selection = selectCandidate(clean, tried);
        expect(selectCandidate([...clean].reverse(), tried)).toEqual(selection);
        expect(JSON.parse(JSON.stringify(selection))).toEqual(selection);
        if (selection.kind === 'apply') {
          expect(selection.candidate.mutationType).toBe('auto');
          expect(tried).not.toContain(selection.hash);
        }
      }),
    );
  });
});

describe('parseFixCandidates', () => {
  it('accepts what a host returns, patch and data included', () => {
    const value = [{ ...candidate('a', 1), patch: '--- a\n+++ b\n', data: { file: 'x.ts', line: 3 } }];
    expect(parseFixCandidates(value)).toEqual({ success: true, data: value, issues: [] });
  });

  it('rejects a confidence out of [0, 1], naming its JSON path', () => {
    const result = parseFixCandidates([candidate('a', 0.5), candidate('b', 1.5), candidate('c', -0.1)]);
    expect(result.success).toBe(false);
    expect(result.issues.map(formatIssue).join('\n')).toMatch(/^\$\[1\]\.confidence: .*\n\$\[2\]\.confidence: /);
  });

  it('lists every problem: empty description, unknown mutation type, unknown field, not an array', () => {
    const result = parseFixCandidates([{ description: '', confidence: 0.5, mutationType: 'magic', extra: 1 }]);
    const paths = result.issues.map(formatIssue).map((line) => line.split(':')[0]);
    expect(paths).toEqual(expect.arrayContaining(['$[0].description', '$[0].mutationType', '$[0]']));
    expect(parseFixCandidates({ candidates: [] }).issues.map(formatIssue)).toEqual([
      expect.stringMatching(/^\$: .*array/),
    ]);
  });

  it('reports a value whose reading throws instead of throwing', () => {
    const hostile = [
      {
        get description(): string {
          throw new Error('no');
        },
      },
    ];
    const result = parseFixCandidates(hostile);
    expect(result.success).toBe(false);
    expect(result.issues[0]?.message).toContain('no');
  });
});
