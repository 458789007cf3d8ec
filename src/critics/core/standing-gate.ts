import { fnv1a64 } from '../../kit/hash.js';
import type { RouteAction } from '../contracts/trace.js';
import type { CheckedDecision } from './route.js';

/** How far a stage's critic is trusted: `full`, `probation` (its accepts are checked) or `revoked` (a human gates). @public */
export type Standing = 'full' | 'probation' | 'revoked';

/** How the accepts of critics on probation are drawn for a check. @internal */
export interface ProbationDraw {
  /** Share of the accepts checked, from 0 to 1. */
  readonly reviewRate: number;
  readonly seed: string;
}

/** One critic decision as the gate sees it. @internal */
export interface GateInput {
  readonly stage: string;
  readonly attempt: number;
  readonly executionId: string;
  readonly standing: Standing;
  /** True when the decision is the second critic's (it is trusted: it is the check). */
  readonly bySecondCritic: boolean;
  readonly hasSecondCritic: boolean;
  readonly checked: CheckedDecision;
  /** The action routed from the decision under the budgets. */
  readonly action: RouteAction;
  readonly draw: ProbationDraw;
}

/** The gated action, and what the trace record says of the standing. @internal */
export interface Gated {
  readonly action: RouteAction;
  readonly marks: { readonly standing?: 'probation' | 'revoked'; readonly sampled?: boolean };
}

// 2^52: the hash's first 13 hex digits as a share in [0, 1).
const SCALE = 2 ** 52;

/**
 * Whether the accept of `stage` at `attempt` in `executionId` is drawn for a check: a hash of the seed and the call
 * against the rate, so the same call draws the same on every run and after a resume. @internal
 */
export function drawnForCheck(draw: ProbationDraw, executionId: string, stage: string, attempt: number): boolean {
  if (draw.reviewRate >= 1) return true;
  const share = Number.parseInt(fnv1a64(`${draw.seed}\n${executionId}\n${stage}\n${attempt}`).slice(0, 13), 16);
  return share / SCALE < draw.reviewRate;
}

type Gate = (input: GateInput) => Gated;

// The one table: what each standing does with the routed action.
const GATES: Record<Standing, Gate> = {
  full: ({ action }) => ({ action, marks: {} }),
  probation: (input) => {
    if (input.action.kind !== 'accept') return { action: input.action, marks: { standing: 'probation' } };
    const sampled = drawnForCheck(input.draw, input.executionId, input.stage, input.attempt);
    if (!sampled) return { action: input.action, marks: { standing: 'probation', sampled } };
    const action: RouteAction = input.hasSecondCritic
      ? { kind: 'confirm' }
      : {
          kind: 'escalate',
          reason: 'probation_review',
          detail: `the ${input.stage} critic is on probation: its accept of attempt ${input.attempt} goes to a human review`,
        };
    return { action, marks: { standing: 'probation', sampled } };
  },
  revoked: (input) => {
    // A broken contract stays what it is; any decision the critic could make is not acted on.
    if (input.checked.verdict === 'invalid') return { action: input.action, marks: { standing: 'revoked' } };
    const detail = `the ${input.stage} critic is revoked: its ${input.checked.verdict} is recorded, not acted on; a human gates the stage`;
    return { action: { kind: 'escalate', reason: 'critic_revoked', detail }, marks: { standing: 'revoked' } };
  },
};

/** Applies the stage critic's standing to a routed decision (the second critic's decisions pass as routed). @internal */
export function gateByStanding(input: GateInput): Gated {
  if (input.bySecondCritic) return { action: input.action, marks: {} };
  return GATES[input.standing](input);
}
