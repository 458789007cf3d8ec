import type { EscalationReason, RouteAction } from '../contracts/trace.js';

/** A critic decision after its contract check: one of the four, or invalid with the reason. @internal */
export type CheckedDecision =
  | { readonly verdict: 'accept' | 'retry' | 'escalate' }
  | { readonly verdict: 'route_back'; readonly to: string }
  | {
      readonly verdict: 'invalid';
      readonly reason: Extract<EscalationReason, 'invalid_decision' | 'critic_failed'>;
      readonly detail: string;
    };

/** What `onBudgetSpent` does when a stage's retry budget is spent. @public */
export type OnBudgetSpent = 'accept_with_gaps' | 'escalate';

/** How critics may route. @public */
export type CriticVariant = 'route_back' | 'veto';

/** The budgets as they stand when a decision is routed. @internal */
export interface BudgetState {
  readonly stage: string;
  readonly retriesUsed: number;
  readonly retryBudget: number;
  readonly onBudgetSpent: OnBudgetSpent;
  readonly backtracks: number;
  readonly maxBacktracks: number;
  readonly spentUsd: number;
  readonly budgetUsd: number | undefined;
  /** True when accepting this stage ends the execution (no generator call follows). */
  readonly lastStage: boolean;
}

/** The routed decision: the action, and whether a `route_back` was turned into a retry by the veto variant. @internal */
export interface Routed {
  readonly action: RouteAction;
  readonly vetoed: boolean;
}

const escalate = (reason: EscalationReason, detail: string): RouteAction => ({ kind: 'escalate', reason, detail });

type Rule = (decision: CheckedDecision, budget: BudgetState) => RouteAction;

// The routing table: one rule per verdict (after the variant's rewrite). Budget precedence lives here only.
const RULES: Record<CheckedDecision['verdict'], Rule> = {
  invalid: (decision) =>
    decision.verdict === 'invalid' ? escalate(decision.reason, decision.detail) : escalate('invalid_decision', ''),
  escalate: (_, budget) => escalate('critic_escalated', `the ${budget.stage} critic escalated to a human`),
  accept: () => ({ kind: 'accept' }),
  route_back: (decision, budget) => {
    if (budget.backtracks >= budget.maxBacktracks) {
      return escalate(
        'spec_problem',
        `route back ${budget.backtracks + 1} (from ${budget.stage}) exceeds maxBacktracks ${budget.maxBacktracks}: the execution keeps failing across stages, which is a spec problem, not a routing problem; review the spec`,
      );
    }
    return { kind: 'route_back', to: decision.verdict === 'route_back' ? decision.to : budget.stage };
  },
  retry: (_, budget) => {
    if (budget.retriesUsed < budget.retryBudget) return { kind: 'retry' };
    if (budget.onBudgetSpent === 'accept_with_gaps') return { kind: 'accept_with_gaps' };
    return escalate(
      'retry_budget',
      `the ${budget.stage} retry budget (${budget.retryBudget}) is spent and its onBudgetSpent is escalate`,
    );
  },
};

// True when the action leads to another generator call.
function callsAgain(action: RouteAction, budget: BudgetState): boolean {
  if (action.kind === 'escalate') return false;
  return !((action.kind === 'accept' || action.kind === 'accept_with_gaps') && budget.lastStage);
}

/** Routes one checked critic decision under the budgets and the variant. @internal */
export function routeDecision(decision: CheckedDecision, budget: BudgetState, variant: CriticVariant): Routed {
  const vetoed = variant === 'veto' && decision.verdict === 'route_back';
  const verdict = vetoed ? 'retry' : decision.verdict;
  const action = RULES[verdict](decision, budget);
  if (budget.budgetUsd !== undefined && budget.spentUsd >= budget.budgetUsd && callsAgain(action, budget)) {
    return { action: escalate('budget', `spent $${budget.spentUsd} of the $${budget.budgetUsd} budget`), vetoed };
  }
  return { action, vetoed };
}
