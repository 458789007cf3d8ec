import { FEEDBACK_STAGE, SDLC_STAGE_ARTIFACTS, type SdlcStageId } from '../../pipeline/stage-presets.js';

/** The stage contracts the consistency review reads, one slot per contract. @public */
export type ContractKey =
  | 'transcript'
  | 'requirement_spec'
  | 'documentation'
  | 'plan'
  | 'jira_tickets'
  | 'system_design'
  | 'code_report'
  | 'test_report'
  | 'deployment_report'
  | 'summary'
  | 'threat_model'
  | 'compliance_report'
  | 'cost_estimate';

/**
 * Where one stage contract lives: its stage id, the canonical artifact path (relative to the run directory) and the
 * legacy paths tried, in order, when the canonical file does not exist. @public
 */
export interface ContractSlot {
  readonly key: ContractKey;
  readonly stage: SdlcStageId;
  readonly artifact: string;
  readonly canonicalPath: string;
  readonly legacyPaths: readonly string[];
  readonly kind: 'core' | 'optional';
}

// Builds one slot from its stage id (the artifact name comes from the SDLC preset) and legacy paths.
function slot(
  key: ContractKey,
  stage: SdlcStageId,
  kind: ContractSlot['kind'],
  legacyPaths: readonly string[],
): ContractSlot {
  const names = SDLC_STAGE_ARTIFACTS[stage];
  const folder = `artifacts/stages/${stage}`;
  const legacy = names.legacy === undefined ? legacyPaths : [`${folder}/${names.legacy}`, ...legacyPaths];
  return Object.freeze({
    key,
    stage,
    artifact: names.canonical,
    canonicalPath: `${folder}/${names.canonical}`,
    legacyPaths: Object.freeze([...legacy]),
    kind,
  });
}

/** Every contract slot of the SDLC review, in pipeline order. @public */
export const REVIEW_CONTRACT_SLOTS: readonly ContractSlot[] = Object.freeze([
  slot('transcript', '01-transcript', 'core', [
    'artifacts/transcripts/structured_meeting_output.json',
    'artifacts/transcript.json',
  ]),
  slot('requirement_spec', '02-requirements', 'core', [
    'artifacts/requirements/requirement_spec.json',
    'artifacts/requirement_spec.json',
    'artifacts/requirements/requirements.json',
  ]),
  slot('documentation', '03-documentation', 'core', [
    'artifacts/documents/documentation_output.json',
    'artifacts/documentation.json',
  ]),
  slot('plan', '04-planning', 'core', ['artifacts/planning/sprint_plan.json', 'artifacts/plan.json']),
  slot('jira_tickets', '05-jira', 'core', ['artifacts/jira/jira_tickets.json', 'artifacts/jira_tickets.json']),
  slot('system_design', '06-architecture', 'core', [
    'artifacts/architecture/system_design.json',
    'artifacts/system_design.json',
  ]),
  slot('code_report', '07-code', 'core', ['artifacts/code/code_output.json', 'artifacts/code_report.json']),
  slot('test_report', '08-testing', 'core', ['artifacts/qa/qa_results.json', 'artifacts/test_report.json']),
  slot('deployment_report', '09-deployment', 'core', [
    'artifacts/deployment/deployment_output.json',
    'artifacts/deployment_report.json',
  ]),
  slot('summary', '10-summary', 'core', ['artifacts/summary.json', 'artifacts/pipeline_final.json']),
  slot('threat_model', '12-security-threat-model', 'optional', ['artifacts/security/threat_model.json']),
  slot('compliance_report', '13-compliance-checker', 'optional', ['artifacts/compliance/compliance_matrix.json']),
  slot('cost_estimate', '14-cost-estimation', 'optional', ['artifacts/cost/cost_estimation.json']),
]);

/** The stages `rstack-agents adopt` deliberately skips: on an adopted run their absence is not reported missing. @public */
export const ADOPTION_SKIPPED_STAGES: readonly string[] = Object.freeze([
  '01-transcript',
  '04-planning',
  '05-jira',
  '10-summary',
  '11-feedback-loop',
  '12-security-threat-model',
  '13-compliance-checker',
  '14-cost-estimation',
]);

/** Output paths of the review, relative to the run directory. @public */
export const REVIEW_OUTPUT_PATHS = Object.freeze({
  feedback: `artifacts/stages/${FEEDBACK_STAGE}/${SDLC_STAGE_ARTIFACTS[FEEDBACK_STAGE].canonical}`,
  remediationPlan: `artifacts/stages/${FEEDBACK_STAGE}/REMEDIATION_PLAN.md`,
  legacyFeedback: 'artifacts/feedback/consistency_report.json',
  legacyRemediationPlan: 'artifacts/feedback/REMEDIATION_PLAN.md',
});
