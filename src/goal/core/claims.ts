import { readOwn } from '../../kit/dot-path.js';

/** A verdict claim the evaluation considered: consumed or rejected, and why. @public */
export interface ClaimRecord {
  /** The criterion the claim is about, or `null` for an id-less verdict. */
  readonly criterionId: string | null;
  /** `explicit`: goal-verdict.json; `agent`: feedback.json `goal_evaluation.criteria[]`. */
  readonly source: 'explicit' | 'agent';
  /** One human sentence. */
  readonly reason: string;
  /** The claim's position in its pool (verdict order in goal-verdict.json, or index in `criteria[]`). */
  readonly index?: number;
}

/** Whether a verdict's iteration stamp is fresh, and if not, why. @public */
export type Freshness =
  | { readonly fresh: true; readonly kept?: string }
  | { readonly fresh: false; readonly ahead: boolean; readonly why: string };

/**
 * What a run remembers about its outputs, for verdicts that judge them: the run-wide iteration in which each stage last
 * ran, and the first iteration evaluated under the current goal. @public
 */
export interface OutputHistory {
  readonly stageRuns: Readonly<Record<string, number>>;
  readonly goalSince: number;
}

/** The outputs a verdict judges: its criterion's `rerun_stages`, and the run's history of them. @public */
export interface JudgedOutputs {
  readonly stages: readonly string[];
  readonly history: OutputHistory;
}

/** The freshness rule of the verdict protocol (docs/verdicts.md). @public */
export function stampFreshness(
  stamp: number | undefined,
  iteration: number | null,
  pool: 'explicit' | 'agent',
  judged?: JudgedOutputs,
): Freshness {
  if (iteration === null) {
    if (pool === 'explicit' || stamp !== undefined) return { fresh: true };
    return {
      fresh: false,
      ahead: false,
      why: 'it carries no iteration stamp (outside a loop only explicit verdicts may be unstamped)',
    };
  }
  if (stamp === undefined)
    return {
      fresh: false,
      ahead: false,
      why: `it carries no iteration stamp, which is stale inside a loop (iteration ${iteration})`,
    };
  if (stamp < iteration) return olderStamp(stamp, iteration, judged);
  if (pool === 'agent' && stamp > iteration) {
    return {
      fresh: false,
      ahead: true,
      why: `it is stamped ${stamp}, ahead of the current iteration ${iteration}: an over-stamped claim is malformed`,
    };
  }
  if (pool === 'explicit' && stamp > iteration + 1) {
    return {
      fresh: false,
      ahead: true,
      why: `it is stamped ${stamp}, more than one iteration ahead of the current iteration ${iteration} (at most ${iteration + 1}): such a stamp would stay fresh forever`,
    };
  }
  return { fresh: true };
}

// A stamp older than the iteration: kept while the outputs it judges are the ones it saw.
function olderStamp(stamp: number, iteration: number, judged: JudgedOutputs | undefined): Freshness {
  const stale = (why: string): Freshness => ({ fresh: false, ahead: false, why: `it is stamped ${stamp}, ${why}` });
  if (judged === undefined || judged.stages.length === 0) return stale(`older than the current iteration ${iteration}`);
  if (stamp < judged.history.goalSince)
    return stale(`older than iteration ${judged.history.goalSince}, the first evaluated under the current goal`);
  for (const stage of judged.stages) {
    const ran = readOwn(judged.history.stageRuns, stage);
    if (ran !== undefined && ran > stamp) return stale(`and ${stage} reran in iteration ${ran}, after this verdict`);
  }
  return { fresh: true, kept: `none of ${judged.stages.join(', ')} has run since iteration ${stamp}` };
}

/**
 * The iteration a verdict written now is consumed by, the stamp `writeVerdict` gives it: the running iteration while
 * one runs, else the next. @internal
 */
export function consumingIteration(
  state: { readonly phase: string; readonly iteration: number } | null,
  latestStarted: number | null,
): number {
  const iteration = Math.max(state?.iteration ?? 0, latestStarted ?? 0);
  const running = state !== null && (state.phase === 'running_stages' || state.phase === 'evaluating');
  return running ? iteration : iteration + 1;
}

/** Builds a claim record. @internal */
export function claim(
  source: 'explicit' | 'agent',
  criterionId: string | null,
  index: number,
  reason: string,
): ClaimRecord {
  return { criterionId, source, reason, index };
}
