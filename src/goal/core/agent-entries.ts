// The agent pool's entries read one by one: each validated on its own and stamped, an entry stamped ahead of the
// current iteration rejected with an ASK_USER signal.
import { type Issue, issuesFromZod } from '../../errors.js';
import { pushAll } from '../../kit/record.js';
import {
  type AgentCriterionEntry,
  agentCriterionEntrySchema,
  type GoalEvaluationSection,
} from '../contracts/goal-evaluation.js';
import { type ClaimRecord, claim, type Freshness, type JudgedOutputs, stampFreshness } from './claims.js';
import type { DecisionSignal } from './precedence.js';

/** A valid agent entry, not stamped ahead, with its effective stamp and that stamp's freshness. @internal */
export interface ParsedAgentEntry {
  readonly entry: AgentCriterionEntry;
  /** Its index in `goal_evaluation.criteria[]`. */
  readonly index: number;
  /** Its effective stamp: the entry's own `iteration`, else the section's. */
  readonly stamp: number | undefined;
  readonly freshness: Freshness;
}

/** The agent entries read: the usable ones, the rejected ones with why, ASK_USER signals and contract issues. @internal */
export interface AgentEntries {
  readonly parsed: ParsedAgentEntry[];
  readonly rejected: ClaimRecord[];
  readonly signals: DecisionSignal[];
  readonly issues: Issue[];
}

/**
 * Reads feedback.json `goal_evaluation.criteria[]` at `iteration`: a malformed entry is rejected with its issues (paths
 * under `goal_evaluation.criteria[i]`). @internal
 */
export function readAgentEntries(
  section: GoalEvaluationSection | null | undefined,
  iteration: number | null,
  judgedOf: (criterionId: string) => JudgedOutputs | undefined = () => undefined,
): AgentEntries {
  const rejected: ClaimRecord[] = [];
  const signals: DecisionSignal[] = [];
  const issues: Issue[] = [];
  const parsed: ParsedAgentEntry[] = [];
  (section?.criteria ?? []).forEach((raw, index) => {
    const result = agentCriterionEntrySchema.safeParse(raw);
    if (!result.success) {
      const found = issuesFromZod(result.error, ['goal_evaluation', 'criteria', index]).map((issue) => ({
        ...issue,
        message: `feedback.json: ${issue.message}`,
      }));
      pushAll(issues, found);
      const first = found[0]?.message.replace(/^feedback\.json: /, '') ?? 'invalid entry';
      rejected.push(claim('agent', idOf(raw), index, `Agent claim not used: the entry is malformed (${first}).`));
      return;
    }
    const entry = result.data;
    const stamp = entry.iteration ?? section?.iteration ?? undefined;
    const freshness = stampFreshness(stamp, iteration, 'agent', judgedOf(entry.criterion_id));
    if (!freshness.fresh && freshness.ahead) {
      rejected.push(
        claim(
          'agent',
          entry.criterion_id,
          index,
          `Agent claim for ${entry.criterion_id} rejected: ${freshness.why}; re-run the feedback stage (this forces ASK_USER).`,
        ),
      );
      signals.push({
        kind: 'agent_stamp_ahead',
        source: entry.criterion_id,
        message: `The feedback stage's claim for ${entry.criterion_id} is stamped ${stamp ?? '?'}, ahead of iteration ${iteration ?? '?'}`,
      });
      return;
    }
    parsed.push({ entry, index, stamp, freshness });
  });
  return { parsed, rejected, signals, issues };
}

// The criterion id of a raw (possibly malformed) entry, when it has a usable one.
function idOf(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const id = (raw as { criterion_id?: unknown }).criterion_id;
  return typeof id === 'string' && id !== '' ? id : null;
}
