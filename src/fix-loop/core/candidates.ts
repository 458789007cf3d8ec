import { canonicalJson, fnv1a64 } from '../../kit/hash.js';
import {
  candidateFromRecord,
  candidateRecord,
  type FixCandidate,
  type FixCandidateRecord,
} from '../contracts/candidate.js';

/**
 * A candidate's identity within a session: the FNV-1a hash of its
 * description, so the same fix proposed again (with another confidence or a
 * regenerated patch) is recognised as tried. Pure.
 *
 * @public
 */
export function candidateHash(candidate: Pick<FixCandidate, 'description'>): string {
  return fnv1a64(candidate.description);
}

/**
 * What the selector decided: apply one automatic candidate, or escalate
 * because the best candidate left is manual (`manual_required`) or none is
 * left (`all_auto_tried`). Either way, the manual candidates not tried, best
 * first, for the escalation report.
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

/**
 * The ranking of candidates: higher confidence first; ties broken by
 * description (code-unit order), then manual before automatic (a human
 * decides a conflict over the same fix), then by the candidate's canonical
 * JSON, so the order never depends on the order the source listed them.
 * Pure.
 *
 * @internal
 */
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
 * The manual candidates a session keeps across its steps, so its escalation
 * report lists the best ones whichever step escalates: those kept so far (as
 * the session record stores them, `manual_candidates`) and the manual ones
 * just proposed, one per candidate hash (its best-ranked proposal), best
 * first (see {@link compareCandidates}), at most `cap` (default
 * {@link MAX_KEPT_MANUAL_CANDIDATES}), returned as the record stores them.
 * Pure.
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
 * Selects the candidate to apply: the best-ranked (see the tie-break on
 * {@link compareCandidates}: confidence, then description, then manual
 * first, then content) whose hash is not in `tried`, duplicates of a
 * description counting once. A manual candidate on top escalates
 * `manual_required` (manual candidates are never applied); no candidate left
 * (an empty list included) escalates `all_auto_tried`. Pure.
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
