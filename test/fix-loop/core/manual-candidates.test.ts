import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  candidateFromRecord,
  candidateRecord,
  type FixCandidateRecord,
} from '../../../src/fix-loop/contracts/candidate.js';
import { fixSessionStateSchema } from '../../../src/fix-loop/contracts/session.js';
import {
  candidateHash,
  compareCandidates,
  keepManualCandidates,
  MAX_KEPT_MANUAL_CANDIDATES,
} from '../../../src/fix-loop/core/candidates.js';
import { createFixSessionState } from '../../../src/fix-loop/core/start.js';
import { candidate, stored } from './fixtures.js';

const names = (candidates: readonly FixCandidateRecord[]) => candidates.map((c) => `${c.description}@${c.confidence}`);

describe('keepManualCandidates', () => {
  it('keeps the manual candidates only, best first, merging those kept (as stored) with those proposed', () => {
    const kept = [stored('rewrite the parser', 0.7, true)];
    const proposed = [
      candidate('tweak', 0.99),
      candidate('pin the dependency', 0.8, true),
      candidate('ask', 0.1, true),
    ];
    expect(names(keepManualCandidates(kept, proposed))).toEqual([
      'pin the dependency@0.8',
      'rewrite the parser@0.7',
      'ask@0.1',
    ]);
  });

  it('keeps one candidate per hash (description), its best-ranked proposal', () => {
    const kept = [stored('rewrite the parser', 0.4, true)];
    const again = [candidate('rewrite the parser', 0.9, true), candidate('rewrite the parser', 0.2, true)];
    expect(names(keepManualCandidates(kept, again))).toEqual(['rewrite the parser@0.9']);
    expect(names(keepManualCandidates(again.map(candidateRecord), []))).toEqual(['rewrite the parser@0.9']);
  });

  it('keeps at most the cap (default 10), dropping the worst', () => {
    const many = Array.from({ length: 25 }, (_, i) => candidate(`manual ${String(i).padStart(2, '0')}`, i / 100, true));
    const kept = keepManualCandidates([], many);
    expect(kept).toHaveLength(MAX_KEPT_MANUAL_CANDIDATES);
    expect(kept[0]?.description).toBe('manual 24');
    expect(kept.at(-1)?.description).toBe('manual 15');
    expect(keepManualCandidates(kept, [candidate('best', 1, true)], 3).map((c) => c.description)).toEqual([
      'best',
      'manual 24',
      'manual 23',
    ]);
  });

  it('for any proposals: bounded, one per hash, sorted, the best of each hash, every manual one seen or beaten', () => {
    const arbCandidate = fc.record({
      description: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      mutationType: fc.constantFrom('auto' as const, 'manual' as const),
    });
    const rounds = fc.array(fc.array(arbCandidate, { maxLength: 8 }), { maxLength: 6 });
    fc.assert(
      fc.property(rounds, fc.integer({ min: 0, max: 12 }), (proposals, cap) => {
        let kept: FixCandidateRecord[] = [];
        for (const proposed of proposals) kept = keepManualCandidates(kept, proposed, cap);
        const all = proposals.flat().filter((c) => c.mutationType === 'manual');
        expect(kept.length).toBeLessThanOrEqual(cap);
        expect(new Set(kept.map(candidateHash)).size).toBe(kept.length);
        const ranked = kept.map(candidateFromRecord);
        expect([...ranked].sort(compareCandidates)).toEqual(ranked);
        const hashes = new Set(all.map(candidateHash));
        expect(kept.length).toBe(Math.min(cap, hashes.size));
        for (const c of kept) {
          expect(c.mutation_type).toBe('manual');
          const best = all.filter((o) => candidateHash(o) === candidateHash(c)).sort(compareCandidates)[0];
          expect(candidateFromRecord(c)).toEqual(best);
        }
      }),
    );
  });

  it('is kept in the session record; a record written before the field existed reads as none kept', () => {
    const state = createFixSessionState({
      sessionId: 's',
      start: { goal: 'g', goalType: 't', workspace: '.', maxAttempts: 5 },
      ts: '2026-01-01T00:00:00.000Z',
    });
    expect(state.manual_candidates).toEqual([]);
    const { manual_candidates: _, ...older } = state;
    expect(fixSessionStateSchema.parse(older).manual_candidates).toEqual([]);
    const withOne = { ...state, manual_candidates: [stored('m', 0.5, true)] };
    expect(fixSessionStateSchema.parse(JSON.parse(JSON.stringify(withOne)))).toEqual(withOne);
  });
});
