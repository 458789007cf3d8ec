import type { Issue } from '../../errors.js';
import { sentence } from '../../kit/sentence.js';
import type { JudgeCriterion } from '../contracts/goal.js';
import { type AgentChoice, searchAgentPool } from './agent-claims.js';
import type { ClaimRecord } from './claims.js';
import { type ExplicitChoice, searchExplicitPool } from './explicit-verdicts.js';
import type { EvaluationFacts } from './facts.js';
import type { DecisionSignal } from './precedence.js';

/**
 * What the verdict protocol decided for one judge criterion: a PASS or FAIL from one pool, or pending (no fresh, usable
 * verdict) with why. @public
 */
export type JudgeOutcome =
  | {
      readonly state: 'decided';
      readonly verdict: 'PASS' | 'FAIL';
      readonly source: 'explicit' | 'agent';
      /** `block` on a FAIL means BLOCK. */
      readonly recommendation: 'retry' | 'block';
      /** Explicit: the verdict's stages replace the criterion's; agent: they are added. */
      readonly rerunStages: readonly string[];
      readonly detail: string;
      readonly summary: string;
    }
  | { readonly state: 'pending'; readonly detail: string; readonly summary: string };

/** The verdict protocol's result over a whole goal. @public */
export interface VerdictResolution {
  /** One outcome per judge criterion id of the goal. */
  readonly judges: ReadonlyMap<string, JudgeOutcome>;
  readonly consumed: readonly ClaimRecord[];
  readonly rejected: readonly ClaimRecord[];
  /** ASK_USER signals (agent claims stamped ahead of the iteration). */
  readonly signals: readonly DecisionSignal[];
  /** Ignored goal-verdict.json entries and malformed `goal_evaluation` entries. */
  readonly issues: readonly Issue[];
}

/**
 * Runs the verdict protocol over gathered facts: the explicit pool (goal-verdict.json) is searched fully first,
 * id-matched then the id-less shorthand. @public
 */
export function resolveVerdicts(facts: EvaluationFacts): VerdictResolution {
  const explicitFact = facts.explicitVerdicts;
  const verdicts = explicitFact.state === 'present' ? explicitFact.verdicts : [];
  const explicit = searchExplicitPool(verdicts, facts.goal, facts.stages, facts.iteration, facts.history);
  const agent = searchAgentPool({
    section: facts.feedback.state === 'present' ? facts.feedback.report.goal_evaluation : null,
    goal: facts.goal,
    stages: facts.stages,
    iteration: facts.iteration,
    evidence: facts.evidence,
    decidedByExplicit: explicit.chosen,
    ...(facts.history === undefined ? {} : { history: facts.history }),
  });
  const rejected = [...explicit.rejected, ...agent.rejected];
  const judges = new Map<string, JudgeOutcome>();
  const reasons = reasonsByCriterion(rejected);
  for (const criterion of facts.goal.criteria) {
    if (criterion.kind !== 'judge' || judges.has(criterion.id)) continue;
    const fromExplicit = explicit.chosen.get(criterion.id);
    const fromAgent = agent.chosen.get(criterion.id);
    if (fromExplicit !== undefined) judges.set(criterion.id, explicitOutcome(criterion, fromExplicit));
    else if (fromAgent !== undefined) judges.set(criterion.id, agentOutcome(criterion, fromAgent));
    else judges.set(criterion.id, pendingOutcome(criterion, facts, reasons));
  }
  const fileIssues =
    explicitFact.state === 'present'
      ? explicitFact.issues.map((issue) => ({ ...issue, message: `goal-verdict.json: ${issue.message}` }))
      : [];
  return {
    judges,
    consumed: [...explicit.consumed, ...agent.consumed],
    rejected,
    signals: agent.signals,
    issues: [...fileIssues, ...agent.issues],
  };
}

// The outcome of an explicit verdict: its stages, when it names any, replace the criterion's.
function explicitOutcome(criterion: JudgeCriterion, choice: ExplicitChoice): JudgeOutcome {
  const { verdict } = choice;
  const by = verdict.judge === undefined ? '' : ` by ${verdict.judge}`;
  const stamp = verdict.iteration === undefined ? '' : ` (iteration ${verdict.iteration})`;
  const reasoning =
    verdict.reasoning === undefined || verdict.reasoning.trim() === '' ? '' : `: ${verdict.reasoning.trim()}`;
  return {
    state: 'decided',
    verdict: verdict.verdict,
    source: 'explicit',
    recommendation: verdict.recommendation ?? 'retry',
    // An explicit list replaces the criterion's, even when it is empty; a stage it repeats is rerun once.
    rerunStages:
      verdict.recommended_rerun_stages === undefined
        ? criterion.rerun_stages
        : [...new Set(verdict.recommended_rerun_stages)],
    detail: sentence(`Explicit verdict ${verdict.verdict}${by}${stamp}${reasoning}`),
    summary: `explicit verdict ${verdict.verdict}${verdict.recommendation === 'block' && verdict.verdict === 'FAIL' ? ', recommendation block' : ''}`,
  };
}

// The outcome of a consumed agent claim: its stages are added to the criterion's.
function agentOutcome(criterion: JudgeCriterion, choice: AgentChoice): JudgeOutcome {
  const { entry } = choice;
  const verdict = entry.result === 'met' ? 'PASS' : 'FAIL';
  const reasoning = entry.reasoning === undefined || entry.reasoning.trim() === '' ? '' : `: ${entry.reasoning.trim()}`;
  return {
    state: 'decided',
    verdict,
    source: 'agent',
    recommendation: entry.recommendation ?? 'retry',
    rerunStages: [...new Set([...criterion.rerun_stages, ...choice.rerunStages])],
    detail: sentence(
      `Agent claim ${entry.result} (${verdict}) from feedback.json, iteration ${choice.stamp ?? '?'}, evidence ${entry.evidence.join(', ')}${reasoning}`,
    ),
    summary: `agent claim ${entry.result}${entry.recommendation === 'block' && verdict === 'FAIL' ? ', recommendation block' : ''}`,
  };
}

// The positions in `rejected` of the claims about each criterion id (the id-less ones under null), in one pass.
function reasonsByCriterion(rejected: readonly ClaimRecord[]): RejectedIndex {
  const positions = new Map<string | null, number[]>();
  rejected.forEach((record, position) => {
    const list = positions.get(record.criterionId);
    if (list === undefined) positions.set(record.criterionId, [position]);
    else list.push(position);
  });
  return { rejected, positions };
}

interface RejectedIndex {
  readonly rejected: readonly ClaimRecord[];
  readonly positions: ReadonlyMap<string | null, readonly number[]>;
}

// The outcome when neither pool yields a usable verdict, naming the rejected claims about the criterion.
function pendingOutcome(criterion: JudgeCriterion, facts: EvaluationFacts, reasons: RejectedIndex): JudgeOutcome {
  const stamp =
    facts.iteration === null
      ? ''
      : ` stamped "iteration": ${facts.iteration + 1} (the next iteration; writeVerdict stamps it)`;
  const agent = facts.stages.includes(facts.feedbackStage)
    ? `, or have ${facts.feedbackStage} emit an evidence-backed goal_evaluation`
    : '';
  const positions = [...(reasons.positions.get(criterion.id) ?? []), ...(reasons.positions.get(null) ?? [])];
  const about = positions.sort((a, b) => a - b).map((position) => reasons.rejected[position]?.reason ?? '');
  const notes = about.length === 0 ? '' : ` Rejected claims: ${about.join(' ')}`;
  return {
    state: 'pending',
    summary: 'no fresh verdict',
    detail: `Judge criterion ${criterion.id} has no fresh verdict: write goal-verdict.json${stamp}${agent}.${notes}`,
  };
}
