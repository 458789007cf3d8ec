import type { FixAttempt } from '../contracts/attempt.js';
import type { EscalationReason, FixAction, PolicyDecision } from '../contracts/decision.js';
import type { GapModel } from '../contracts/gap.js';
import { MAX_ATTEMPTS_CAP } from '../contracts/start.js';
import { computeGap } from './gap.js';

/** The part of the stored session record (snake_case) the policy decides from. @public */
export interface PolicyInput {
  readonly environment_verified: boolean;
  readonly gap: GapModel | null;
  readonly attempts: readonly Pick<FixAttempt, 'gap_before' | 'gap_after'>[];
  readonly max_attempts: number;
}

/** What the rows of {@link FIX_POLICY} test, derived once from a `PolicyInput`. @public */
export interface PolicyFacts {
  readonly environmentVerified: boolean;
  readonly gap: GapModel | null;
  /** The gap recomputed from its parts, so a stale or hand-edited total cannot mislead a row. */
  readonly total: number;
  readonly attemptsMade: number;
  /** The attempt bound that applies: `max_attempts` within 1 and {@link MAX_ATTEMPTS_CAP}. */
  readonly bound: number;
  /** How many of the last attempts in a row left the gap larger than they found it (counted up to 2, a trend). */
  readonly worseInARow: number;
  /** How many of the last attempts in a row left the gap exactly as they found it (counted up to 2, a trend). */
  readonly flatInARow: number;
}

/** The id of a row of {@link FIX_POLICY}. @public */
export type PolicyRowId =
  | 'probe'
  | 'measure'
  | 'infra_gap'
  | 'converged'
  | 'max_attempts'
  | 'worsening_trend'
  | 'no_progress'
  | 'build_failing'
  | 'tests_failing';

/** One row of {@link FIX_POLICY}: when it applies, the decision it makes and the sentence behind it. @public */
export interface PolicyRow {
  readonly id: PolicyRowId;
  readonly when: (facts: PolicyFacts) => boolean;
  readonly action: FixAction;
  readonly reason?: EscalationReason;
  readonly rationale: (facts: PolicyFacts) => string;
  readonly confidence: number;
}

// How many attempts in a row make a trend.
const TREND = 2;

const missing = (facts: PolicyFacts): readonly string[] => facts.gap?.requirements.missing ?? [];

/**
 * The fix-loop policy: the first row that applies decides (the table is in docs/fix-loop.md).
 *
 * @public
 */
export const FIX_POLICY: readonly PolicyRow[] = Object.freeze([
  {
    id: 'probe',
    when: (facts) => !facts.environmentVerified,
    action: 'probe',
    rationale: () => 'The environment is not verified yet: probe the workspace and the commands before acting.',
    confidence: 1,
  },
  {
    id: 'measure',
    when: (facts) => facts.gap === null,
    action: 'measure',
    rationale: () => 'No gap has been measured yet: run the build and the tests to measure it.',
    confidence: 1,
  },
  {
    id: 'infra_gap',
    when: (facts) => missing(facts).length > 0,
    action: 'escalate',
    reason: 'infra_gap',
    rationale: (facts) =>
      `The environment is not ready, and no code fix can make it so: ${missing(facts).join('; ')}. A human must set it up (for example, by running a setup script such as \`npm ci\` in the workspace).`,
    confidence: 0.95,
  },
  {
    id: 'converged',
    when: (facts) => facts.total === 0,
    action: 'converged',
    rationale: () => 'The build passes, no test fails and nothing is missing: the gap is zero.',
    confidence: 1,
  },
  {
    id: 'max_attempts',
    when: (facts) => facts.attemptsMade >= facts.bound,
    action: 'escalate',
    reason: 'max_attempts',
    rationale: (facts) =>
      `${facts.attemptsMade} attempt(s) made, the bound of ${facts.bound}, and the gap is still ${facts.total}.`,
    confidence: 0.9,
  },
  {
    id: 'worsening_trend',
    when: (facts) => facts.worseInARow >= TREND,
    action: 'escalate',
    reason: 'worsening_trend',
    rationale: (facts) => `The last ${facts.worseInARow} attempts in a row made the gap worse (now ${facts.total}).`,
    confidence: 0.85,
  },
  {
    id: 'no_progress',
    when: (facts) => facts.flatInARow >= TREND,
    action: 'escalate',
    reason: 'no_progress',
    rationale: (facts) => `The last ${facts.flatInARow} attempts in a row left the gap unchanged at ${facts.total}.`,
    confidence: 0.85,
  },
  {
    id: 'build_failing',
    when: (facts) => facts.gap?.build.failing === true,
    action: 'build_iteration',
    rationale: (facts) =>
      `The build fails (${facts.gap?.build.error_count ?? 0} error(s) counted): fix the build before the tests.`,
    confidence: 0.8,
  },
  {
    id: 'tests_failing',
    when: () => true,
    action: 'test_iteration',
    rationale: (facts) =>
      `The build passes and ${facts.gap?.tests.failed ?? 0} of ${facts.gap?.tests.total ?? 0} test(s) fail: fix the failing tests.`,
    confidence: 0.8,
  },
] satisfies PolicyRow[]);

/**
 * The facts the rows test. An interrupted attempt breaks a trend; a bad `max_attempts` counts as 1. Pure.
 *
 * @public
 */
export function policyFacts(input: PolicyInput): PolicyFacts {
  const requested = input.max_attempts;
  const bound = Number.isFinite(requested) && requested >= 1 ? Math.min(Math.floor(requested), MAX_ATTEMPTS_CAP) : 1;
  return {
    environmentVerified: input.environment_verified,
    gap: input.gap,
    total: input.gap === null ? 0 : computeGap(input.gap).gap,
    attemptsMade: input.attempts.length,
    bound,
    worseInARow: trailing(input.attempts, (before, after) => after > before),
    flatInARow: trailing(input.attempts, (before, after) => after === before),
  };
}

// How many of the last attempts in a row satisfy `test` (at most TREND are looked at).
function trailing(attempts: PolicyInput['attempts'], test: (before: number, after: number) => boolean): number {
  let run = 0;
  for (let index = attempts.length - 1; index >= 0 && run < TREND; index -= 1) {
    const attempt = attempts[index];
    if (attempt === undefined || attempt.gap_after === null || !test(attempt.gap_before, attempt.gap_after)) break;
    run += 1;
  }
  return run;
}

/**
 * The first row of {@link FIX_POLICY} that applies: total and deterministic; `reason` set exactly on `escalate`. Pure.
 *
 * @example
 * ```ts
 * decideNextAction({ environment_verified: false, gap: null, attempts: [], max_attempts: 5 }).action; // 'probe'
 * ```
 * @public
 */
export function decideNextAction(input: PolicyInput): PolicyDecision {
  const facts = policyFacts(input);
  const row = FIX_POLICY.find((candidate) => candidate.when(facts)) ?? (FIX_POLICY.at(-1) as PolicyRow);
  const decision: PolicyDecision = { action: row.action, rationale: row.rationale(facts), confidence: row.confidence };
  return row.reason === undefined ? decision : { ...decision, reason: row.reason };
}
