import type { LoopEvent } from '../contracts/events.js';
import type { LoopPhase } from '../contracts/loop-state.js';
import type { StopReason } from '../contracts/stop-reason.js';

/** A file of the run the report could not use, and why. @internal */
export interface ReportProblem {
  readonly path: string;
  readonly message: string;
}

/** What the report shows of `iterations/<n>/evaluation.json`. @internal */
export interface ReportEvaluation {
  readonly status: string;
  readonly score: number;
  readonly minScore: number | null;
  readonly reason: string;
  /** Criteria and built-in checks that did not pass. */
  readonly failing: readonly {
    readonly id: string;
    readonly kind: string;
    readonly status: string;
    readonly detail: string;
  }[];
  readonly recommendedRerunStages: readonly string[];
}

/** A stop of a session as recorded. @internal */
export interface ReportStop {
  readonly stoppedOn: StopReason;
  readonly reason: string;
  readonly iteration: number;
}

/** One stage run of an iteration; `interrupted` when it started and never completed (an abort, a crash). @internal */
export interface ReportStage {
  readonly stage: string;
  readonly status: string;
  readonly costUsd: number;
  readonly durationMs: number;
  readonly detail?: string;
}

/** One iteration as the report shows it. @internal */
export interface ReportIteration {
  readonly iteration: number;
  /** The session it ran in (counted from the events), or `null` when the events do not say. */
  readonly session: number | null;
  readonly sessionIteration: number | null;
  readonly maxIterations: number | null;
  /** The stages it set out to run. */
  readonly planned: readonly string[];
  readonly stages: readonly ReportStage[];
  readonly resumed: boolean;
  /** What its `goal_evaluated` event said, when there is one. */
  readonly evaluated: { readonly status: string; readonly score: number; readonly reason: string } | null;
  readonly evaluationPath: string;
  /** `null` when evaluation.json is missing or unreadable (the problem is listed). */
  readonly evaluation: ReportEvaluation | null;
  readonly retry: { readonly stages: readonly string[]; readonly reason: string } | null;
  readonly stops: readonly ReportStop[];
  /** Its stages' costs, those reported late (after the loop stopped waiting) included. */
  readonly spentUsd: number;
  /** Of which reported late: counted by a later fold (`late_cost_recorded`), not in the stage table. */
  readonly lateCostUsd: number;
}

/** One visit on the loop's path: an iteration, or a stop; `via` labels the edge that led to it. @internal */
export type PathStep =
  | { readonly kind: 'iteration'; readonly iteration: number; readonly via: string | null }
  | { readonly kind: 'stop'; readonly stop: ReportStop; readonly via: string | null };

/** An iteration's evaluation file: its path, and what it holds when it could be read. @internal */
export interface ReportEvaluationFile {
  readonly path: string;
  readonly evaluation: ReportEvaluation | null;
}

/** What the shell read of a run, for {@link buildRunReport}. @internal */
export interface RunReportInput {
  readonly runDir: string;
  /** The events of events.jsonl (and any the state's outbox had not delivered), in order. */
  readonly events: readonly LoopEvent[];
  /** Every iteration's evaluation file: its path, and its content when it could be read. */
  readonly evaluations: ReadonlyMap<number, ReportEvaluationFile>;
  readonly state: {
    readonly goalId: string;
    readonly phase: LoopPhase;
    readonly stop: ReportStop | null;
    readonly spentUsd: number;
  } | null;
  readonly metricsSpentUsd: number | null;
  readonly problems: readonly ReportProblem[];
}

/** A run as the report shows it. @internal */
export interface RunReport {
  readonly runDir: string;
  readonly goalId: string | null;
  readonly sessions: number;
  readonly iterations: readonly ReportIteration[];
  readonly path: readonly PathStep[];
  /** The last session's stop; `null` while a session is open or when nothing recorded one. */
  readonly stop: ReportStop | null;
  /** An open session: its phase, and the stop that paused it (an abort) when one did. */
  readonly open: { readonly phase: LoopPhase; readonly pausedBy: ReportStop | null } | null;
  readonly spent: { readonly usd: number; readonly source: string } | null;
  readonly problems: readonly ReportProblem[];
}

/** The iterations a report covers: every iteration an event names, every one with a folder under `iterations/`, and the state's counter. @internal */
export function reportIterationNumbers(
  events: readonly LoopEvent[],
  onDisk: readonly number[],
  stateIteration: number,
): number[] {
  const numbers = new Set(onDisk);
  for (const event of events) if (event.iteration > 0) numbers.add(event.iteration);
  if (stateIteration > 0) numbers.add(stateIteration);
  return [...numbers].sort((a, b) => a - b);
}
