import { formatIssue, formatJsonPath, type Issue, moreIssues } from '../../errors.js';
import type { CheckedBuiltin } from './builtin-check.js';

// An issue of a `stage_status` entry: the stage is not counted as passed, but the loop runs on.
const isStageIssue = (issue: Issue): boolean => issue.path[0] === 'stage_status';

/**
 * `metrics:readable`, when metrics.json has a problem the loop refuses to run on (not a JSON object, a
 * `cumulative_cost_usd` that is not a number ≥ 0, a failed read): FAIL with a BLOCK signal, since no stage rerun fixes
 * the file and `run()` throws `INVALID_CONTRACT` on it until it is fixed. @internal
 */
export function metricsReadableCheck(issues: readonly Issue[] | undefined): CheckedBuiltin | null {
  const refused = (issues ?? []).filter((issue) => !isStageIssue(issue));
  const first = refused[0];
  if (first === undefined) return null;
  const more = moreIssues(refused.length);
  const id = 'metrics:readable';
  const message = `metrics.json cannot be used: ${formatIssue(first)}${more}`;
  return {
    check: { id, status: 'FAIL', detail: `${message}; the loop refuses to run until it is fixed.`, rerunStages: [] },
    signals: [{ kind: 'metrics_unreadable', source: id, message }],
  };
}

/**
 * The detail of a pending stage whose `stage_status` entry in metrics.json could not be read, or `null` when its entry
 * is fine: the stage was not seen to run, its status is unknown. @internal
 */
export function unreadableStageDetail(issues: readonly Issue[] | undefined, stage: string): string | null {
  const issue = (issues ?? []).find(
    (candidate) => isStageIssue(candidate) && (candidate.path.length === 1 || candidate.path[1] === stage),
  );
  return issue === undefined
    ? null
    : `Stage ${stage} has no readable status (metrics.json ${formatJsonPath(issue.path)} cannot be read), so it counts as not run.`;
}
