import type { FixAttempt } from '../../../src/fix-loop/contracts/attempt.js';
import {
  candidateRecord,
  type FixCandidate,
  type FixCandidateRecord,
} from '../../../src/fix-loop/contracts/candidate.js';
import type { GapModel } from '../../../src/fix-loop/contracts/gap.js';
import type { EscalationSource } from '../../../src/fix-loop/core/escalation.js';
import { computeGap } from '../../../src/fix-loop/core/gap.js';

/** A gap model from a few numbers: build errors (0 = passing), failed tests, missing requirements. */
export function gapOf(buildErrors: number, failedTests: number, missing: readonly string[] = []): GapModel {
  return computeGap({
    build: { failing: buildErrors > 0, error_count: buildErrors },
    tests: { failed: failedTests, passed: 10, total: 10 + failedTests },
    requirements: { missing: [...missing] },
  });
}

/** An attempt that took the gap from `before` to `after`. */
export function attempt(
  index: number,
  before: number,
  after: number | null,
  over: Partial<FixAttempt> = {},
): FixAttempt {
  return {
    index,
    action: 'test_iteration',
    candidate_description: `fix ${index}`,
    candidate_hash: `h${index}`,
    outcome: after === null ? 'interrupted' : 'applied',
    gap_before: before,
    gap_after: after,
    detail: '',
    ...over,
  };
}

/** A candidate with the given description, confidence and type. */
export function candidate(description: string, confidence: number, manual = false): FixCandidate {
  return { description, confidence, mutationType: manual ? 'manual' : 'auto' };
}

/** The same candidate as the session's files store it (`mutation_type`). */
export function stored(description: string, confidence: number, manual = false): FixCandidateRecord {
  return candidateRecord(candidate(description, confidence, manual));
}

/** A session of three attempts (applied, not applied, interrupted) that ends 2 tests short, to escalate. */
export const session: EscalationSource = {
  session_id: 'fix-7',
  goal: 'npm test passes',
  goal_type: 'tests',
  gap: gapOf(0, 2),
  attempts: [
    attempt(0, 4, 3, { candidate_description: 'add the missing import', action: 'build_iteration' }),
    attempt(1, 3, 3, { candidate_description: 'widen | the type', outcome: 'not_applied' }),
    attempt(2, 3, null, { candidate_description: 'rename the export' }),
  ],
};

/** Two manual candidates, not tried. */
export const manual = [stored('rotate the API key', 0.4, true), stored('ask the owner', 0.9, true)];
