import type { FeedbackIssue, OmittedIssues } from '../contracts/feedback-issues.js';
import type { BaselineSummary, FeedbackReport, PipelineHealth } from '../contracts/feedback-report.js';

/** Points each severity costs the consistency score. @public */
export const SEVERITY_PENALTY = Object.freeze({ CRITICAL: 10, WARNING: 3, INFO: 0.5 });

/** The issue counts by severity. @public */
export interface SeverityCounts {
  readonly critical: number;
  readonly warning: number;
  readonly info: number;
}

/** Counts issues by severity. Pure. @public */
export function countSeverities(issues: readonly Pick<FeedbackIssue, 'severity'>[]): SeverityCounts {
  let critical = 0;
  let warning = 0;
  let info = 0;
  for (const issue of issues) {
    if (issue.severity === 'CRITICAL') critical += 1;
    else if (issue.severity === 'WARNING') warning += 1;
    else info += 1;
  }
  return { critical, warning, info };
}

/** The consistency score: 100 − 10 per CRITICAL − 3 per WARNING − 0.5 per INFO, floor 0. @public */
export function consistencyScore(counts: SeverityCounts): number {
  const score =
    100 -
    SEVERITY_PENALTY.CRITICAL * counts.critical -
    SEVERITY_PENALTY.WARNING * counts.warning -
    SEVERITY_PENALTY.INFO * counts.info;
  return Math.max(0, score);
}

/** The health band of a score: 90–100 `HEALTHY`, 70 up to 90 (89.5 included) `NEEDS_ATTENTION`, below 70 (69.5 included) `CRITICAL_GAPS`. @public */
export function pipelineHealth(score: number): PipelineHealth {
  if (score >= 90) return 'HEALTHY';
  if (score >= 70) return 'NEEDS_ATTENTION';
  return 'CRITICAL_GAPS';
}

// The counts, score and health of a set of listed issues and of the findings counted in omitted entries.
function scored(
  issues: readonly Pick<FeedbackIssue, 'severity'>[],
  omitted: readonly Pick<OmittedIssues, 'severity' | 'omitted'>[],
): BaselineSummary {
  const listed = countSeverities(issues);
  const extra = (severity: OmittedIssues['severity']): number =>
    omitted.reduce((sum, entry) => sum + (entry.severity === severity ? entry.omitted : 0), 0);
  const counts = {
    critical: listed.critical + extra('CRITICAL'),
    warning: listed.warning + extra('WARNING'),
    info: listed.info + extra('INFO'),
  };
  const score = consistencyScore(counts);
  return {
    total_issues: counts.critical + counts.warning + counts.info,
    critical_count: counts.critical,
    warning_count: counts.warning,
    info_count: counts.info,
    overall_consistency_score: score,
    pipeline_health: pipelineHealth(score),
  };
}

/**
 * feedback.json's `summary`: the counts, score and health of every issue outside the adopted baseline, the listed ones
 * and those counted in `omitted` (findings past the per-rule cap of `issues[]`). @public
 */
export function summarizeIssues(
  issues: readonly Pick<FeedbackIssue, 'severity' | 'baseline'>[],
  adopt: boolean,
  omitted: readonly Pick<OmittedIssues, 'severity' | 'omitted' | 'baseline'>[] = [],
): FeedbackReport['summary'] {
  const isBaseline = (entry: { readonly baseline?: boolean | undefined }): boolean => entry.baseline === true;
  const main = scored(
    issues.filter((issue) => !isBaseline(issue)),
    omitted.filter((entry) => !isBaseline(entry)),
  );
  if (!adopt) return main;
  return { ...main, baseline: scored(issues.filter(isBaseline), omitted.filter(isBaseline)) };
}
