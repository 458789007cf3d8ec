import { type ContractExpectation, isSkipped } from '../analyses/availability.js';
import type { FeedbackReport } from '../contracts/feedback-report.js';
import type { ReviewModel } from './model.js';

/** True when a run manifest (`manifest.json`) says the run was adopted (`"mode": "adopt"`). @public */
export function isAdoptedRun(manifest: unknown): boolean {
  return typeof manifest === 'object' && manifest !== null && (manifest as { mode?: unknown }).mode === 'adopt';
}

/**
 * Builds `analysis_scope`: the contracts analysed, missing (core only), malformed (with every parse issue), skipped
 * (missing but not expected: a stage adoption skips, or one outside the pipeline), the optional agents detected and the
 * legacy paths read. @public
 */
export function buildAnalysisScope(
  model: ReviewModel,
  expectation: ContractExpectation,
): FeedbackReport['analysis_scope'] {
  const contracts = model.statuses.map((status) => ({
    contract: status.key,
    stage: status.stage,
    state: isSkipped(status, expectation) ? ('skipped' as const) : status.state,
    path: status.path,
    legacy: status.legacy,
    issues: status.issues.map((issue) => ({ code: issue.code, path: [...issue.path], message: issue.message })),
  }));
  const pathsIn = (state: string, kinds: readonly string[] = ['core', 'optional']): string[] =>
    model.statuses
      .filter((status, index) => contracts[index]?.state === state && kinds.includes(status.kind))
      .map((status) => status.path);
  return {
    mode: expectation.adopt ? 'adopt' : 'greenfield',
    contracts_analyzed: pathsIn('analysed'),
    contracts_missing: pathsIn('missing', ['core']),
    contracts_malformed: pathsIn('malformed'),
    contracts_skipped: pathsIn('skipped'),
    optional_agents_detected: model.statuses
      .filter((status) => status.kind === 'optional' && status.state !== 'missing')
      .map((status) => status.stage),
    legacy_paths_used: model.statuses
      .filter((status) => status.legacy && status.state !== 'missing')
      .map((status) => status.path),
    contracts,
  };
}
