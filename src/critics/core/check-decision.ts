import { formatIssue } from '../../errors.js';
import { failureSentence } from '../../kit/failure-sentence.js';
import { inputIssues } from '../../ports/tool-issues.js';
import { type CriticDecision, criticDecisionSchema } from '../contracts/decision.js';
import type { CheckedDecision, CriticVariant } from './route.js';

/** What a critic call gave. @internal */
export type CriticReply =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string; readonly timedOut?: boolean };

/** A critic reply after its contract check: the parsed decision (if it parsed) and the checked one. @internal */
export interface CheckedReply {
  readonly parsed: CriticDecision | null;
  readonly checked: CheckedDecision;
}

/** Checks a critic's reply against its contract. @internal */
export function checkCriticReply(
  reply: CriticReply,
  stages: readonly string[],
  stageIndex: number,
  variant: CriticVariant,
): CheckedReply {
  const stage = stages[stageIndex] ?? '';
  if (!reply.ok) {
    return {
      parsed: null,
      checked: {
        verdict: 'invalid',
        reason: 'critic_failed',
        detail: failureSentence(`the ${stage} critic`, reply),
      },
    };
  }
  let result: ReturnType<typeof criticDecisionSchema.safeParse>;
  try {
    result = criticDecisionSchema.safeParse(reply.value);
  } catch (error) {
    // A throwing getter, or a value nested too deep to walk: the contract is broken, not the pipeline.
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { parsed: null, checked: invalid(`the ${stage} critic returned a decision that cannot be read (${why})`) };
  }
  if (!result.success) {
    const issues = inputIssues(criticDecisionSchema, result.error).map(formatIssue).join('; ');
    return { parsed: null, checked: invalid(`the ${stage} critic returned a malformed decision: ${issues}`) };
  }
  const parsed = result.data;
  if (parsed.decision !== 'route_back') return { parsed, checked: { verdict: parsed.decision } };
  if (variant === 'veto') return { parsed, checked: { verdict: 'route_back', to: stage } };
  const target = parsed.routeTo;
  if (target === undefined)
    return { parsed, checked: invalid(`the ${stage} critic routed back without naming a stage (routeTo)`) };
  const index = stages.indexOf(target);
  if (index < 0)
    return { parsed, checked: invalid(`the ${stage} critic routed back to "${target}", an unknown stage`) };
  if (index >= stageIndex) {
    const where = index === stageIndex ? 'its own stage (a retry is a retry)' : 'a later stage';
    return { parsed, checked: invalid(`the ${stage} critic routed back to "${target}", ${where}`) };
  }
  return { parsed, checked: { verdict: 'route_back', to: target } };
}

// An invalid decision with its sentence.
function invalid(detail: string): CheckedDecision {
  return { verdict: 'invalid', reason: 'invalid_decision', detail };
}

/** The cost a critic reported, when its reply carries a valid one. Pure. @internal */
export function costOf(reply: CriticReply): number {
  return reply.ok ? reportedCost(reply.value) : 0;
}

/** The `costUsd` a generator result or critic reply reports: a finite number ≥ 0, else 0 (also when reading it throws). @internal */
export function reportedCost(value: unknown): number {
  try {
    const cost = typeof value === 'object' && value !== null ? (value as { costUsd?: unknown }).costUsd : undefined;
    return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : 0;
  } catch {
    return 0;
  }
}

/** The optional fields of a judgement, present only when the critic gave them. Pure. @internal */
export function optionalFields(parsed: CriticDecision | null): { routeTo?: string; confidence?: number } {
  if (parsed === null) return {};
  return {
    ...(parsed.routeTo === undefined ? {} : { routeTo: parsed.routeTo }),
    ...(parsed.confidence === undefined ? {} : { confidence: parsed.confidence }),
  };
}
