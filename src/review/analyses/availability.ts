import { formatIssue } from '../../errors.js';
import { ADOPTION_SKIPPED_STAGES } from '../core/contract-slots.js';
import { type Finding, findingAt } from '../core/finding.js';
import type { ContractStatus, ReviewModel } from '../core/model.js';

/** How many parse issues a MALFORMED finding quotes in its description (all are in `analysis_scope`). @public */
export const QUOTED_PARSE_ISSUES = 5;

/**
 * True when the slot is not expected on this run: an optional stage, or (on
 * an adopted run) a stage adoption deliberately skips. Pure.
 *
 * @public
 */
export function isSkippedByAdoption(status: ContractStatus, adopt: boolean): boolean {
  return adopt && status.state === 'missing' && ADOPTION_SKIPPED_STAGES.includes(status.stage);
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

/**
 * The findings about reading the run itself: a malformed contract (CRITICAL,
 * with its parse issues), a missing core contract (WARNING "agent may not
 * have run"; never for optional stages, nor on an adopted run for the stages
 * adoption skips), and an adopted test baseline that was never executed
 * (WARNING). Pure.
 *
 * @public
 */
export function analyseAvailability(model: ReviewModel, adopt: boolean): Finding[] {
  const findings: Finding[] = [];
  for (const status of model.statuses) {
    if (status.state === 'malformed') findings.push(malformedFinding(model, status));
    if (status.state !== 'missing' || status.kind !== 'core' || isSkippedByAdoption(status, adopt)) continue;
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

/**
 * True when more than half of the core contracts are missing (adoption-skipped
 * stages not counted): the review is BLOCKED. Pure.
 *
 * @public
 */
export function isBlocked(model: ReviewModel, adopt: boolean): boolean {
  const core = model.statuses.filter((status) => status.kind === 'core' && !isSkippedByAdoption(status, adopt));
  const missing = core.filter((status) => status.state === 'missing').length;
  return missing * 2 > core.length;
}
