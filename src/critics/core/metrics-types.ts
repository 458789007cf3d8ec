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
}

/** A health flag the seed names, with the stage it concerns (if one). @public */
export interface HealthFlag {
  readonly code:
    | 'systemic_upstream_failure'
    | 'critics_too_lenient'
    | 'critic_never_blocks'
    | 'retry_rate_out_of_band'
    | 'backtrack_rate_out_of_band';
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
}

/** What {@link computeCriticMetrics} gives. @public */
export interface CriticMetrics {
  readonly stages: readonly StageMetrics[];
  readonly overall: OverallMetrics;
  /** Route backs performed, by edge. */
  readonly routesBack: readonly { readonly from: string; readonly to: string; readonly count: number }[];
  readonly flags: readonly HealthFlag[];
}
