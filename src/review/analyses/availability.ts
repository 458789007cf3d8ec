import { formatIssue } from '../../errors.js';
import { ADOPTION_SKIPPED_STAGES } from '../core/contract-slots.js';
import { type Finding, findingAt } from '../core/finding.js';
import type { ContractStatus, ReviewModel } from '../core/model.js';

/** How many parse issues a MALFORMED finding quotes in its description (all are in `analysis_scope`). @public */
export const QUOTED_PARSE_ISSUES = 5;

/** Which stage contracts a run is expected to have. @internal */
export interface ContractExpectation {
  readonly adopt: boolean;
  readonly pipeline: ReadonlySet<string>;
}

/**
 * True when a missing contract is not expected on this run, so its absence is `skipped`, never a finding: its stage is
 * one adoption skips (on an adopted run) or is not in the pipeline. @internal
 */
export function isSkipped(status: ContractStatus, expectation: ContractExpectation): boolean {
  if (status.state !== 'missing') return false;
  if (!expectation.pipeline.has(status.stage)) return true;
  return expectation.adopt && ADOPTION_SKIPPED_STAGES.includes(status.stage);
}

// One MALFORMED finding for a contract that is not JSON or fails its schema.
function malformedFinding(model: ReviewModel, status: ContractStatus): Finding {
  const quoted = status.issues.slice(0, QUOTED_PARSE_ISSUES).map(formatIssue);
  const more =
    status.issues.length > QUOTED_PARSE_ISSUES
      ? ` (and ${status.issues.length - QUOTED_PARSE_ISSUES} more issues)`
      : '';
  return findingAt(model, status.key, {
    rule: 'contract.malformed',
    title: `${status.stage} output: MALFORMED`,
    description: `${status.path} cannot be analysed: ${quoted.join('; ')}${more}.`,
    ids: [],
    action: `Rerun ${status.stage} so that it writes a valid ${status.key} contract.`,
  });
}

/** The findings about reading the run itself. @public */
export function analyseAvailability(model: ReviewModel, expectation: ContractExpectation): Finding[] {
  const findings: Finding[] = [];
  for (const status of model.statuses) {
    if (status.state === 'malformed') findings.push(malformedFinding(model, status));
    if (status.state !== 'missing' || status.kind !== 'core' || isSkipped(status, expectation)) continue;
    findings.push(
      findingAt(model, status.key, {
        rule: 'contract.missing',
        title: `${status.stage} output: NOT FOUND`,
        description: `${status.path} does not exist (nor any legacy path): the agent may not have run.`,
        ids: [],
        action: `Run ${status.stage} so that it writes ${status.path}.`,
      }),
    );
  }
  const tests = model.contracts.test_report;
  if (tests?.meta.harvested && !tests.executed) {
    findings.push(
      findingAt(model, 'test_report', {
        rule: 'adoption.baseline_tests_not_executed',
        title: 'Baseline tests were detected, not executed',
        description:
          'The adopted test report records that the baseline tests exist but were never run; they prove nothing until a real run exercises them.',
        ids: [],
        action: 'Run the baseline test suite and record its results in test_report.json.',
      }),
    );
  }
  return findings;
}

/** True when more than half of the expected core contracts are missing: the review is BLOCKED. @public */
export function isBlocked(model: ReviewModel, expectation: ContractExpectation): boolean {
  const core = model.statuses.filter(
    (status) => status.kind === 'core' && expectation.pipeline.has(status.stage) && !isSkipped(status, expectation),
  );
  const missing = core.filter((status) => status.state === 'missing').length;
  return missing * 2 > core.length;
}
