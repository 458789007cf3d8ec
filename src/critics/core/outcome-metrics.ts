import type { Issue } from '../../errors.js';
import { ownValue } from '../../kit/record.js';
import { type OutcomeRecord, outcomeListIssues, POST_DEPLOYMENT } from '../contracts/outcome.js';
import type { ExecutionTrace } from '../contracts/result.js';
import type { CriticRoi, HealthFlag, OutcomeSummary, ShiftLeftEntry } from './metrics-types.js';
import { emptyOutcomeTally, type OutcomeTally, tallyOutcome } from './outcome-tally.js';

/** Everything the outcomes add to the metrics. @internal */
export interface OutcomeFigures {
  readonly byStage: ReadonlyMap<string, { predictiveAccuracy: number | null; outcomeDecisions: number }>;
  readonly reworkRate: number | null;
  readonly predictiveAccuracy: number | null;
  readonly shiftLeft: readonly ShiftLeftEntry[];
  readonly criticRoi: readonly CriticRoi[];
  readonly summary: OutcomeSummary;
  readonly flags: readonly HealthFlag[];
}

const rate = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);
const usd = (value: number): string => `$${value.toFixed(2)}`;

/**
 * The issues of the `outcomes` option at `['outcomes']`: a record that does not fit its schema, an execution given
 * twice, and an `origin` or `foundAt` naming a stage no trace has. @internal
 */
export function outcomeIssues(outcomes: unknown, stages: ReadonlySet<string>): Issue[] {
  const issues = outcomeListIssues(outcomes, ['outcomes']);
  if (issues.length > 0) return issues;
  (outcomes as readonly OutcomeRecord[]).forEach((outcome, index) => {
    if (!outcome.defect) return;
    const named = [
      ['origin', outcome.origin],
      ['foundAt', outcome.foundAt === POST_DEPLOYMENT ? undefined : outcome.foundAt],
    ] as const;
    for (const [field, stage] of named)
      if (stage !== undefined && !stages.has(stage))
        issues.push({
          code: 'unknown_stage',
          path: ['outcomes', index, field],
          message: `no trace has a stage "${stage}"${field === 'foundAt' ? ` (or give "${POST_DEPLOYMENT}")` : ''}`,
        });
  });
  return issues;
}

/**
 * What the outcomes say of the critics of `traces` (stages in `order`): predictive accuracy per stage ({@link
 * tallyOutcome}), the rework rate, the shift-left profile (a stage's defects are the executions in which its critic
 * rejected; after deployment, the outcomes found there) and each critic's cost against the rework it prevented, flagged
 * when it costs more. @internal
 */
export function outcomeFigures(
  traces: readonly ExecutionTrace[],
  outcomes: readonly OutcomeRecord[],
  order: readonly string[],
): OutcomeFigures {
  const index = new Map(order.map((stage, at) => [stage, at]));
  const byId = Object.fromEntries(outcomes.map((outcome) => [outcome.executionId, outcome]));
  const tallies = new Map<string, OutcomeTally>(order.map((stage) => [stage, emptyOutcomeTally()]));
  const found = new Map<string, number>();
  let recorded = 0;
  for (const execution of traces) {
    const outcome = ownValue(byId, execution.executionId);
    if (outcome === undefined) continue;
    recorded += 1;
    tallyOutcome(tallies, execution, outcome, index);
    if (outcome.defect) found.set(outcome.foundAt, (found.get(outcome.foundAt) ?? 0) + 1);
  }
  const matched = new Set(traces.map((execution) => execution.executionId));
  const defects = outcomes.filter((outcome) => outcome.defect && matched.has(outcome.executionId));
  const costs = defects.flatMap((outcome) =>
    outcome.defect && outcome.reworkCostUsd !== undefined ? [outcome.reworkCostUsd] : [],
  );
  const meanRework = costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0) / costs.length;
  const judged = [...tallies].filter(([, t]) => t.accepts + t.rejects > 0 || t.criticCost > 0);
  const criticRoi = judged.map(([stage, t]) => roiOf(stage, t, meanRework));
  const profile = [
    ...order.map((stage) => [stage, (tallies.get(stage)?.rejectedIn ?? 0) + (found.get(stage) ?? 0)] as const),
    [POST_DEPLOYMENT, found.get(POST_DEPLOYMENT) ?? 0] as const,
  ];
  const total = profile.reduce((sum, [, count]) => sum + count, 0);
  const all = [...tallies.values()].reduce(
    (sum, t) => ({ right: sum.right + t.acceptsRight + t.rejectsRight, of: sum.of + t.accepts + t.rejects }),
    { right: 0, of: 0 },
  );
  return {
    byStage: new Map(
      [...tallies].map(([stage, t]) => [
        stage,
        {
          predictiveAccuracy: rate(t.acceptsRight + t.rejectsRight, t.accepts + t.rejects),
          outcomeDecisions: t.accepts + t.rejects,
        },
      ]),
    ),
    reworkRate: rate(defects.length, recorded),
    predictiveAccuracy: rate(all.right, all.of),
    shiftLeft: profile.map(([at, count]) => ({ at, defects: count, share: rate(count, total) })),
    criticRoi,
    summary: {
      recorded,
      defects: defects.length,
      postDeployment: found.get(POST_DEPLOYMENT) ?? 0,
      meanReworkCostUsd: meanRework,
      unmatched: outcomes.map((outcome) => outcome.executionId).filter((id) => !matched.has(id)),
    },
    flags: criticRoi.filter(costsMore).map((roi) => ({
      code: 'critic_costs_more_than_it_saves' as const,
      stage: roi.stage,
      message: `the ${roi.stage} critic cost ${usd(roi.criticCostUsd)} and prevented about ${usd(roi.preventedUsd ?? 0)} of rework: it costs more than it saves`,
    })),
  };
}

// One critic's cost against the rework it prevented.
function roiOf(stage: string, t: OutcomeTally, meanRework: number | null): CriticRoi {
  const preventedUsd = meanRework === null ? null : t.caught * meanRework;
  const savedPerCost = preventedUsd === null || t.criticCost === 0 ? null : preventedUsd / t.criticCost;
  return { stage, criticCostUsd: t.criticCost, caught: t.caught, preventedUsd, savedPerCost };
}

// True when a critic is known to cost more than the rework it prevented.
const costsMore = (roi: CriticRoi): boolean => roi.preventedUsd !== null && roi.criticCostUsd > roi.preventedUsd;
