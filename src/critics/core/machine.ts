import { ownValue } from '../../kit/record.js';
import { addUsd } from '../../kit/usd.js';
import type { CriticDecision, JsonValue } from '../contracts/decision.js';
import type { ExecutionState, FeedbackCause } from '../contracts/execution-state.js';
import type { RouteAction } from '../contracts/trace.js';
import { applyAction, emit, type RecordDraft, type Transition } from './apply-action.js';
import { type CriticReply, checkCriticReply, costOf, optionalFields } from './check-decision.js';
import { type CriticVariant, type OnBudgetSpent, routeDecision } from './route.js';
import { gateByStanding, type ProbationDraw, type Standing } from './standing-gate.js';

/** One stage as the transition sees it. @internal */
interface StagePlan {
  readonly id: string;
  readonly hasCritic: boolean;
  readonly retryBudget: number;
  readonly onBudgetSpent: OnBudgetSpent;
  /** The standing of the stage's critic (default full). */
  readonly standing?: Standing;
  readonly hasSecondCritic?: boolean;
}

/** The pipeline's settings the transition reads. @internal */
export interface MachineConfig {
  readonly stages: readonly StagePlan[];
  readonly maxBacktracks: number;
  readonly variant: CriticVariant;
  readonly budgetUsd: number | undefined;
  /** How accepts of critics on probation are drawn for a check (default: every one). */
  readonly probation?: ProbationDraw;
}

const EVERY_ACCEPT: ProbationDraw = { reviewRate: 1, seed: '' };

/** What the shell observed: a generator call or a critic call that finished (or threw). @internal */
export type ExecutionInput =
  | {
      readonly type: 'generated';
      readonly ts: string;
      readonly durationMs: number;
      readonly result:
        | { readonly ok: true; readonly output: JsonValue; readonly outputHash: string; readonly costUsd: number }
        | { readonly ok: false; readonly error: string; readonly costUsd: number };
    }
  | {
      readonly type: 'judged';
      readonly ts: string;
      readonly durationMs: number;
      readonly reply: CriticReply;
    };

/** What the shell does next, as data. @internal */
export type ExecutionEffect =
  | { readonly kind: 'generate'; readonly stage: string; readonly attempt: number; readonly cause: FeedbackCause }
  | {
      readonly kind: 'judge';
      readonly stage: string;
      readonly attempt: number;
      /** Set when the stage's second critic judges (the accept of the critic on probation waits for it). */
      readonly by?: 'second_critic';
    }
  | { readonly kind: 'finish' };

/** The next state, its trace records (in its outbox), and the effect to carry out. @internal */
export interface ExecutionStep extends Transition {
  readonly effect: ExecutionEffect;
}

/** What the state says to do next. Pure. @internal */
export function effectOf(state: ExecutionState, config: MachineConfig): ExecutionEffect {
  if (state.status !== 'running') return { kind: 'finish' };
  const stage = config.stages[state.stage_index]?.id ?? '';
  const done = ownValue(state.attempts, stage) ?? 0;
  if (state.phase === 'judge') return { kind: 'judge', stage, attempt: done };
  if (state.phase === 'confirm') return { kind: 'judge', stage, attempt: done, by: 'second_critic' };
  return { kind: 'generate', stage, attempt: done + 1, cause: state.cause };
}

/**
 * The staged pipeline as a pure transition: given the execution's record and what a generator or critic call gave,
 * the next record, the trace records that tell it, and what to do next. @internal
 */
export function transition(state: ExecutionState, input: ExecutionInput, config: MachineConfig): ExecutionStep {
  const plan = config.stages[state.stage_index];
  if (state.status !== 'running' || plan === undefined) throw new Error('unreachable: no call runs after the end');
  const stage = plan.id;
  const before = ownValue(state.attempts, stage) ?? 0;
  const attempts = input.type === 'generated' ? before + 1 : before;
  const cost = input.type === 'generated' ? input.result.costUsd : costOf(input.reply);
  const spent = {
    ...state,
    attempts: { ...state.attempts, [stage]: attempts },
    spent_usd: addUsd(state.spent_usd, cost),
  };
  const call = { stage, attempt: attempts, costUsd: cost, durationMs: input.durationMs };
  if (input.type === 'generated') {
    const { result } = input;
    if (!result.ok) {
      const action: RouteAction = { kind: 'escalate', reason: 'generator_failed', detail: result.error };
      const draft: RecordDraft = { kind: 'generated', ...call, outputHash: null, error: result.error, action };
      return settle(spent, config, action, [], draft, input.ts);
    }
    const pending = { ...spent, pending: { output: result.output, output_hash: result.outputHash } };
    const draft = { kind: 'generated' as const, ...call, outputHash: result.outputHash };
    if (plan.hasCritic) {
      return finishStep({ ...pending, phase: 'judge' }, config, [{ ...draft, action: null }], input.ts);
    }
    const { action } = routeDecision({ verdict: 'accept' }, budgetOf(pending, config), config.variant);
    return settle(pending, config, action, [], { ...draft, action }, input.ts);
  }
  const ids = config.stages.map((entry) => entry.id);
  const { parsed, checked } = checkCriticReply(input.reply, ids, state.stage_index, config.variant);
  const routed = routeDecision(checked, budgetOf(spent, config), config.variant);
  const bySecondCritic = state.phase === 'confirm';
  const { action, marks } = gateByStanding({
    stage,
    attempt: attempts,
    executionId: state.execution_id,
    standing: plan.standing ?? 'full',
    bySecondCritic,
    hasSecondCritic: plan.hasSecondCritic === true,
    checked,
    action: routed.action,
    draw: config.probation ?? EVERY_ACCEPT,
  });
  const issues = parsed?.issues ?? [];
  const judgement = {
    stage,
    attempt: attempts,
    decision: parsed?.decision ?? ('invalid' as const),
    issues,
    ...optionalFields(parsed),
    ...(bySecondCritic ? { by: 'second_critic' as const } : {}),
  };
  const draft: RecordDraft = {
    kind: 'judged',
    ...call,
    ...judgement,
    ...(checked.verdict === 'invalid' ? { invalid: checked.detail } : {}),
    ...(routed.vetoed ? { vetoed: true } : {}),
    ...marks,
    action,
  };
  const judged = { ...spent, judgements: [...state.judgements, judgement] };
  return settle(judged, config, action, issues, draft, input.ts);
}

// Applies the action, stamps the call's record (and the finished record) and derives the effect.
function settle(
  state: ExecutionState,
  config: MachineConfig,
  action: RouteAction,
  issues: CriticDecision['issues'],
  draft: RecordDraft,
  ts: string,
): ExecutionStep {
  const ids = config.stages.map((entry) => entry.id);
  const applied = applyAction(state, ids, action, issues);
  return finishStep(applied.state, config, applied.finished === null ? [draft] : [draft, applied.finished], ts);
}

// Emits the drafts and derives the next effect.
function finishStep(state: ExecutionState, config: MachineConfig, drafts: RecordDraft[], ts: string): ExecutionStep {
  const next = emit(state, ts, drafts);
  return { ...next, effect: effectOf(next.state, config) };
}

// The budgets of the current stage.
function budgetOf(state: ExecutionState, config: MachineConfig) {
  const plan = config.stages[state.stage_index];
  const stage = plan?.id ?? '';
  return {
    stage,
    retriesUsed: ownValue(state.retries, stage) ?? 0,
    retryBudget: plan?.retryBudget ?? 0,
    onBudgetSpent: plan?.onBudgetSpent ?? 'escalate',
    backtracks: state.backtracks,
    maxBacktracks: config.maxBacktracks,
    spentUsd: state.spent_usd,
    budgetUsd: config.budgetUsd,
    lastStage: state.stage_index === config.stages.length - 1,
  } as const;
}
