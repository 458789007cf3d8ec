/**
 * The 15 stage ids of the SDLC taxonomy, in pipeline order, exactly as rstack-agents names them (`agents/sdlc/NN-*.md`
 * in richard-devbot/SDLC-rstack). @public
 */
export const SDLC_STAGES = Object.freeze([
  '00-environment',
  '01-transcript',
  '02-requirements',
  '03-documentation',
  '04-planning',
  '05-jira',
  '06-architecture',
  '07-code',
  '08-testing',
  '09-deployment',
  '10-summary',
  '11-feedback-loop',
  '12-security-threat-model',
  '13-compliance-checker',
  '14-cost-estimation',
] as const);

/** One stage id of the SDLC taxonomy. @public */
export type SdlcStageId = (typeof SDLC_STAGES)[number];

/** The stages of the SDLC taxonomy whose absence is never an error (the consistency review checks them only when they ran). @public */
export const SDLC_OPTIONAL_STAGES: readonly SdlcStageId[] = Object.freeze([
  '12-security-threat-model',
  '13-compliance-checker',
  '14-cost-estimation',
] as const);

/** The id of the feedback (consistency review) stage of the SDLC taxonomy: the stage that writes feedback.json and its `goal_evaluation`. @public */
export const FEEDBACK_STAGE = '11-feedback-loop' satisfies SdlcStageId;

/** The contract file a stage writes in `artifacts/stages/<stage id>/`: `canonical` is the name to read first and to write. @public */
export interface StageArtifactNames {
  readonly canonical: string;
  readonly legacy?: string;
}

/** Each SDLC stage's contract file name. @public */
export const SDLC_STAGE_ARTIFACTS: Readonly<Record<SdlcStageId, StageArtifactNames>> = Object.freeze({
  '00-environment': Object.freeze({ canonical: 'environment_report.json' }),
  '01-transcript': Object.freeze({ canonical: 'transcript.json' }),
  '02-requirements': Object.freeze({ canonical: 'requirement_spec.json', legacy: 'requirements.json' }),
  '03-documentation': Object.freeze({ canonical: 'documentation.json' }),
  '04-planning': Object.freeze({ canonical: 'plan.json' }),
  '05-jira': Object.freeze({ canonical: 'jira_tickets.json' }),
  '06-architecture': Object.freeze({ canonical: 'system_design.json' }),
  '07-code': Object.freeze({ canonical: 'code_report.json' }),
  '08-testing': Object.freeze({ canonical: 'test_report.json' }),
  '09-deployment': Object.freeze({ canonical: 'deployment_report.json' }),
  '10-summary': Object.freeze({ canonical: 'summary.json' }),
  '11-feedback-loop': Object.freeze({ canonical: 'feedback.json' }),
  '12-security-threat-model': Object.freeze({ canonical: 'threat_model.json' }),
  '13-compliance-checker': Object.freeze({ canonical: 'compliance_report.json' }),
  '14-cost-estimation': Object.freeze({ canonical: 'cost_estimate.json' }),
});

/** True when `id` is a stage id of the SDLC taxonomy. @public */
export function isSdlcStage(id: string): id is SdlcStageId {
  return (SDLC_STAGES as readonly string[]).indexOf(id) !== -1;
}
