/** The figures of one stage across executions (a rate is `null` when it has no denominator yet). @public */
export interface StageMetrics {
  readonly stage: string;
  /** Executions that ran this stage at least once. */
  readonly executions: number;
  /** Generator calls per execution that reached the stage. */
  readonly meanIterations: number | null;
  /** Critic decisions made at this stage. */
  readonly decisions: number;
  /** Share of the stage's critic decisions that were retries within the stage (vetoed route backs included). */
  readonly retryRate: number | null;
  /** Share of the stage's critic decisions that routed back to an earlier stage. */
  readonly backtrackRate: number | null;
  /** Share of executions reaching the stage whose stage was last accepted within its retry budget. */
  readonly completionWithinBudgetRate: number | null;
  /** Share of executions reaching the stage that escalated there. */
  readonly escalationRate: number | null;
  /** Share of the critic's accepts and rejects that later events bore out. */
  readonly criticAccuracy: number | null;
  readonly criticCostUsd: number;
  readonly generatorCostUsd: number;
  /** Critic cost over generator cost at this stage. */
  readonly criticToGeneratorCost: number | null;
  /** With outcomes: share of the critic's judged decisions the outcomes bore out. */
  readonly predictiveAccuracy: number | null;
  /** The critic's decisions the outcomes judged (the sample behind `predictiveAccuracy`). */
  readonly outcomeDecisions: number;
}

/** A health flag the seed names, with the stage it concerns (if one). @public */
export interface HealthFlag {
  readonly code:
    | 'systemic_upstream_failure'
    | 'critics_too_lenient'
    | 'critic_never_blocks'
    | 'retry_rate_out_of_band'
    | 'backtrack_rate_out_of_band'
    | 'critic_costs_more_than_it_saves';
  readonly stage?: string;
  readonly message: string;
}

/** The same figures over every stage, the economics, and the health flags. @public */
export interface OverallMetrics {
  readonly executions: number;
  readonly completionRate: number | null;
  readonly escalationRate: number | null;
  readonly decisions: number;
  readonly retryRate: number | null;
  readonly backtrackRate: number | null;
  readonly criticAccuracy: number | null;
  readonly meanIterations: number | null;
  readonly criticCostUsd: number;
  readonly generatorCostUsd: number;
  /** Cost of the generator calls beyond each stage's first per execution: the rework the critics caused. */
  readonly reworkCostUsd: number;
  readonly criticToGeneratorCost: number | null;
  /** With outcomes: share of the executions with an outcome whose work needed rework (a defect). */
  readonly reworkRate: number | null;
  /** With outcomes: the predictive accuracy of every critic's judged decisions together. */
  readonly predictiveAccuracy: number | null;
}

/** Where defects were found: at a stage (its critic rejected the work) or after deployment. @public */
export interface ShiftLeftEntry {
  /** A stage id, or `post_deployment`. */
  readonly at: string;
  readonly defects: number;
  /** Share of all the defects found in the executions with an outcome. */
  readonly share: number | null;
}

/** One critic's cost against the rework it prevented (the seed's economic case). @public */
export interface CriticRoi {
  readonly stage: string;
  /** The critic's cost in the executions with an outcome. */
  readonly criticCostUsd: number;
  /** Executions in which its rejects led to accepted work that stayed clean. */
  readonly caught: number;
  /** `caught` × the mean rework cost of a defect that got through (`null` when no outcome gives a cost). */
  readonly preventedUsd: number | null;
  /** `preventedUsd` over `criticCostUsd`: above 1 the critic saves more than it costs. */
  readonly savedPerCost: number | null;
}

/** What the outcomes cover. @public */
export interface OutcomeSummary {
  /** Executions with an outcome. */
  readonly recorded: number;
  readonly defects: number;
  readonly postDeployment: number;
  /** Mean `reworkCostUsd` of the defects that give it (`null` when none does). */
  readonly meanReworkCostUsd: number | null;
  /** Outcomes naming no execution among the traces. */
  readonly unmatched: readonly string[];
}

/** What {@link computeCriticMetrics} gives. @public */
export interface CriticMetrics {
  readonly stages: readonly StageMetrics[];
  readonly overall: OverallMetrics;
  /** Route backs performed, by edge. */
  readonly routesBack: readonly { readonly from: string; readonly to: string; readonly count: number }[];
  readonly flags: readonly HealthFlag[];
  /** With outcomes: defects found at each stage and after deployment, in stage order (else empty). */
  readonly shiftLeft: readonly ShiftLeftEntry[];
  /** With outcomes: each critic's cost against the rework it prevented (else empty). */
  readonly criticRoi: readonly CriticRoi[];
  /** With outcomes: what they cover (else `null`). */
  readonly outcomes: OutcomeSummary | null;
}
