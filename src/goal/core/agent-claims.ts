import type { Issue } from '../../errors.js';
import { readOwn } from '../../kit/dot-path.js';
import { canonicalJson } from '../../kit/hash.js';
import type { Goal } from '../contracts/goal.js';
import type { AgentCriterionEntry, GoalEvaluationSection } from '../contracts/goal-evaluation.js';
import { type ParsedAgentEntry, readAgentEntries } from './agent-entries.js';
import { type ClaimRecord, claim, type JudgedOutputs, type OutputHistory } from './claims.js';
import type { EvidenceFact } from './facts.js';
import type { DecisionSignal } from './precedence.js';

/** The agent claim consumed for one judge criterion. @public */
export interface AgentChoice {
  readonly entry: AgentCriterionEntry;
  /** Its index in `goal_evaluation.criteria[]`. */
  readonly index: number;
  /** Its effective stamp: the entry's own `iteration`, else the section's. */
  readonly stamp: number | undefined;
  /** The entry's `recommended_rerun_stages` that are stages of the pipeline (the others are dropped). */
  readonly rerunStages: readonly string[];
}

/** What the agent pool yields, with every claim's fate, ASK_USER signals and contract issues. @public */
export interface AgentPool {
  readonly chosen: ReadonlyMap<string, AgentChoice>;
  readonly consumed: readonly ClaimRecord[];
  readonly rejected: readonly ClaimRecord[];
  readonly signals: readonly DecisionSignal[];
  readonly issues: readonly Issue[];
}

/** The input of {@link searchAgentPool}. @public */
export interface AgentPoolInput {
  readonly section: GoalEvaluationSection | null | undefined;
  readonly goal: Goal;
  readonly stages: readonly string[];
  readonly iteration: number | null;
  readonly evidence: Readonly<Record<string, EvidenceFact>>;
  /** Judge criteria the explicit pool already decided, as a set of their ids or a map keyed by them. */
  readonly decidedByExplicit: Pick<ReadonlySet<string>, 'has'>;
  /** When each stage last ran and since when the goal holds: a claim stays fresh while what it judges did not rerun. */
  readonly history?: OutputHistory;
}

/** Searches the agent pool, feedback.json `goal_evaluation.criteria[]`. @public */
export function searchAgentPool(input: AgentPoolInput): AgentPool {
  const { history } = input;
  const judgedOf = (id: string): JudgedOutputs | undefined => {
    const criterion = input.goal.criteria.find((candidate) => candidate.id === id && candidate.kind === 'judge');
    return history === undefined || criterion === undefined ? undefined : { stages: criterion.rerun_stages, history };
  };
  const { parsed, rejected, signals, issues } = readAgentEntries(input.section, input.iteration, judgedOf);
  const chosen = new Map<string, AgentChoice>();
  const consumed: ClaimRecord[] = [];
  for (const group of groupById(parsed)) {
    const first = group[0];
    if (first === undefined) continue;
    const id = first.entry.criterion_id;
    if (new Set(group.map(decisionKey)).size > 1) {
      const results = group.map((item) => `#${item.index} ${item.entry.result}`).join(', ');
      for (const item of group)
        rejected.push(
          claim(
            'agent',
            id,
            item.index,
            `Agent claims for ${id} not used: ${group.length} conflicting duplicate entries (${results}); none consumed.`,
          ),
        );
      continue;
    }
    for (const item of group.slice(1))
      rejected.push(
        claim(
          'agent',
          id,
          item.index,
          `Agent claim for ${id} not used: a duplicate of entry #${first.index}, which is kept.`,
        ),
      );
    const why = unusable(first, input);
    if (why !== null) {
      rejected.push(claim('agent', id, first.index, `Agent claim ${first.entry.result} for ${id} not used: ${why}.`));
      continue;
    }
    const known = new Set(input.stages);
    const rerunStages = first.entry.recommended_rerun_stages.filter((stage) => known.has(stage));
    const dropped = first.entry.recommended_rerun_stages.filter((stage) => !known.has(stage));
    if (dropped.length > 0) {
      rejected.push(
        claim(
          'agent',
          id,
          first.index,
          `Agent claim for ${id}: recommended_rerun_stages outside the pipeline dropped (${dropped.join(', ')}); the claim itself is consumed.`,
        ),
      );
    }
    chosen.set(id, { entry: first.entry, index: first.index, stamp: first.stamp, rerunStages });
    consumed.push(
      claim(
        'agent',
        id,
        first.index,
        `Consumed the agent claim ${first.entry.result} for ${id} (stamped ${first.stamp ?? '?'}${first.freshness.fresh && first.freshness.kept !== undefined ? `; still fresh: ${first.freshness.kept}` : ''}; evidence ${first.entry.evidence.join(', ')}).`,
      ),
    );
  }
  return { chosen, consumed, rejected: rejected.sort((a, b) => (a.index ?? 0) - (b.index ?? 0)), signals, issues };
}

// Why a kept, non-conflicting claim cannot be consumed, or null when it can.
function unusable(item: ParsedAgentEntry, input: AgentPoolInput): string | null {
  const { entry } = item;
  const id = entry.criterion_id;
  if (input.decidedByExplicit.has(id))
    return `an explicit verdict decides ${id}, so the agent pool is not consulted for it`;
  const criterion = input.goal.criteria.find((candidate) => candidate.id === id);
  if (criterion === undefined) return `goal ${input.goal.goal_id} has no criterion "${id}"`;
  if (criterion.kind !== 'judge')
    return `${id} is a ${criterion.kind} criterion; agent claims apply only to judge criteria`;
  if (entry.result === 'unknown') return 'its result is "unknown"; a host or a human must judge';
  if (!item.freshness.fresh) return item.freshness.why;
  if (entry.evidence.length === 0) return 'it lists no evidence; unevidenced claims are never consumed';
  const bad = entry.evidence.flatMap((path) => {
    const fact = readOwn(input.evidence, path);
    if (fact === undefined) return [`${path} (not checked)`];
    return fact.ok ? [] : [`${path} (${fact.detail})`];
  });
  return bad.length === 0 ? null : `evidence not verified: ${bad.join(', ')}`;
}

// Groups parsed entries by criterion id, in order of first appearance.
function groupById(parsed: readonly ParsedAgentEntry[]): ParsedAgentEntry[][] {
  const groups = new Map<string, ParsedAgentEntry[]>();
  for (const item of parsed)
    groups.set(item.entry.criterion_id, [...(groups.get(item.entry.criterion_id) ?? []), item]);
  return [...groups.values()];
}

// The decision-relevant content of an entry: duplicates that differ here conflict.
function decisionKey(item: ParsedAgentEntry): string {
  const sorted = (values: readonly string[]): string[] => [...new Set(values)].sort();
  const { entry } = item;
  return canonicalJson({
    result: entry.result,
    recommendation: entry.recommendation ?? 'retry',
    stamp: item.stamp ?? null,
    evidence: sorted(entry.evidence),
    rerun: sorted(entry.recommended_rerun_stages),
  });
}
