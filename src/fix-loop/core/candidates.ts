import { canonicalJson, fnv1a64 } from '../../kit/hash.js';
import {
  candidateFromRecord,
  candidateRecord,
  type FixCandidate,
  type FixCandidateRecord,
} from '../contracts/candidate.js';

/**
 * FNV-1a of the description, so the same fix proposed again (another confidence or patch) counts as tried. Pure.
 *
 * @public
 */
export function candidateHash(candidate: Pick<FixCandidate, 'description'>): string {
  return fnv1a64(candidate.description);
}

/**
 * Apply one automatic candidate, or escalate (`manual_required`, `all_auto_tried`); with the untried manual ones.
 *
 * @public
 */
export type CandidateSelection =
  | {
      readonly kind: 'apply';
      readonly candidate: FixCandidate;
      readonly hash: string;
      readonly rationale: string;
      readonly manualCandidates: readonly FixCandidate[];
    }
  | {
      readonly kind: 'escalate';
      readonly reason: 'manual_required' | 'all_auto_tried';
      readonly rationale: string;
      readonly manualCandidates: readonly FixCandidate[];
    };

// A confidence as a sort key: anything not a number in [0, 1] ranks last.
const score = (candidate: FixCandidate): number =>
  Number.isFinite(candidate.confidence) ? candidate.confidence : Number.NEGATIVE_INFINITY;

// Orders two strings by UTF-16 code units, the same on every platform and locale.
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Confidence, then description, then manual first, then canonical JSON: independent of the source's order. @internal */
export function compareCandidates(a: FixCandidate, b: FixCandidate): number {
  return (
    score(b) - score(a) ||
    byCodeUnits(a.description, b.description) ||
    byCodeUnits(b.mutationType, a.mutationType) ||
    byCodeUnits(canonicalJson(a), canonicalJson(b))
  );
}

/** How many manual candidates a session keeps for its escalation report (the best ones). @public */
export const MAX_KEPT_MANUAL_CANDIDATES = 10;

/**
 * The manual candidates kept across steps for the escalation report: one per hash, best first, at most `cap`. Pure.
 *
 * @public
 */
export function keepManualCandidates(
  kept: readonly FixCandidateRecord[],
  proposed: readonly FixCandidate[],
  cap = MAX_KEPT_MANUAL_CANDIDATES,
): FixCandidateRecord[] {
  const manual = [...kept.map(candidateFromRecord), ...proposed].filter(
    (candidate) => candidate.mutationType === 'manual',
  );
  const seen = new Set<string>();
  const best: FixCandidateRecord[] = [];
  for (const candidate of manual.sort(compareCandidates)) {
    const hash = candidateHash(candidate);
    if (seen.has(hash)) continue;
    seen.add(hash);
    best.push(candidateRecord(candidate));
  }
  return best.slice(0, Math.max(0, cap));
}

/**
 * The best-ranked untried candidate; a manual one on top escalates `manual_required` (never applied), none left
 * `all_auto_tried`. Pure.
 *
 * @example
 * ```ts
 * selectCandidate([{ description: 'add import', confidence: 0.9, mutationType: 'auto' }], []).kind; // 'apply'
 * ```
 * @public
 */
export function selectCandidate(candidates: readonly FixCandidate[], tried: readonly string[]): CandidateSelection {
  const skip = new Set(tried);
  const left: { candidate: FixCandidate; hash: string }[] = [];
  for (const candidate of [...candidates].sort(compareCandidates)) {
    const hash = candidateHash(candidate);
    if (skip.has(hash)) continue;
    skip.add(hash);
    left.push({ candidate, hash });
  }
  const manualCandidates = left.filter((entry) => entry.candidate.mutationType === 'manual').map((e) => e.candidate);
  const top = left[0];
  if (top === undefined) {
    const rationale =
      candidates.length === 0
        ? 'The candidate source proposed no fix.'
        : `Every one of the ${candidates.length} proposed candidate(s) was already tried in this session.`;
    return { kind: 'escalate', reason: 'all_auto_tried', rationale, manualCandidates };
  }
  if (top.candidate.mutationType === 'manual') {
    const rationale = `The best candidate left ("${top.candidate.description}", confidence ${top.candidate.confidence}) needs a human.`;
    return { kind: 'escalate', reason: 'manual_required', rationale, manualCandidates };
  }
  const rationale = `Highest-confidence untried candidate ("${top.candidate.description}", confidence ${top.candidate.confidence}) of ${left.length} left.`;
  return { kind: 'apply', candidate: top.candidate, hash: top.hash, rationale, manualCandidates };
}
