import type { OmittedIssues } from '../contracts/feedback-issues.js';
import type { Finding } from './finding.js';
import { reviewRule } from './rules.js';

/** Issues of one rule (and baseline flag) that feedback.json lists before counting the rest in `omitted_issues`. @public */
export const DEFAULT_MAX_ISSUES_PER_RULE = 1000;

// Ids of the omitted findings quoted in each `omitted_issues` entry.
const OMITTED_EXAMPLE_IDS = 10;

// What is counted of the findings of one rule (and baseline flag) past the cap.
interface Tally {
  readonly rule: Finding['rule'];
  readonly baseline: boolean;
  kept: number;
  omitted: number;
  readonly examples: string[];
  readonly stage: string;
  readonly artifacts: Set<string>;
}

/**
 * Keeps the first `max` findings of each rule (counted apart for the baseline findings of an adopted run) in their
 * order, and counts the rest: one `omitted_issues` entry per rule past the cap, with its severity, its count, the stage
 * and artifacts it concerns and the ids of the first omitted findings. @internal
 */
export function capFindings(findings: Iterable<Finding>, max: number): { kept: Finding[]; omitted: OmittedIssues[] } {
  const tallies = new Map<string, Tally>();
  const kept: Finding[] = [];
  for (const finding of findings) {
    const baseline = finding.baseline === true;
    const key = `${finding.rule}\0${baseline}`;
    let tally = tallies.get(key);
    if (tally === undefined) {
      tally = {
        rule: finding.rule,
        baseline,
        kept: 0,
        omitted: 0,
        examples: [],
        stage: finding.stage,
        artifacts: new Set(),
      };
      tallies.set(key, tally);
    }
    if (tally.kept < max) {
      tally.kept += 1;
      kept.push(finding);
      continue;
    }
    tally.omitted += 1;
    for (const artifact of finding.artifacts) tally.artifacts.add(artifact);
    const id = finding.ids[0];
    if (tally.examples.length < OMITTED_EXAMPLE_IDS && id !== undefined) tally.examples.push(id);
  }
  const omitted: OmittedIssues[] = [];
  for (const tally of tallies.values()) {
    if (tally.omitted === 0) continue;
    const rule = reviewRule(tally.rule);
    omitted.push({
      rule: rule.id,
      category: rule.category,
      severity: tally.baseline ? 'INFO' : rule.severity,
      ...(tally.baseline ? { baseline: true } : {}),
      listed: tally.kept,
      omitted: tally.omitted,
      title: rule.title,
      source_agent: tally.stage,
      affected_artifacts: [...tally.artifacts],
      example_ids: tally.examples,
    });
  }
  return { kept, omitted };
}
