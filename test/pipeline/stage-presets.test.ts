import { describe, expect, it } from 'vitest';
import {
  FEEDBACK_STAGE,
  isSdlcStage,
  SDLC_OPTIONAL_STAGES,
  SDLC_STAGE_ARTIFACTS,
  SDLC_STAGES,
} from '../../src/pipeline/stage-presets.js';

describe('SDLC stage preset', () => {
  it('has the 15 rstack-agents stage ids in order', () => {
    expect(SDLC_STAGES).toEqual([
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
    ]);
    expect(Object.isFrozen(SDLC_STAGES)).toBe(true);
  });

  it('names each stage artifact, with the legacy requirements name', () => {
    expect(Object.keys(SDLC_STAGE_ARTIFACTS)).toEqual([...SDLC_STAGES]);
    expect(SDLC_STAGE_ARTIFACTS['02-requirements']).toEqual({
      canonical: 'requirement_spec.json',
      legacy: 'requirements.json',
    });
    expect(SDLC_STAGE_ARTIFACTS['11-feedback-loop'].canonical).toBe('feedback.json');
    expect(SDLC_STAGES.slice(1).map((stage) => SDLC_STAGE_ARTIFACTS[stage].canonical)).toEqual([
      'transcript.json',
      'requirement_spec.json',
      'documentation.json',
      'plan.json',
      'jira_tickets.json',
      'system_design.json',
      'code_report.json',
      'test_report.json',
      'deployment_report.json',
      'summary.json',
      'feedback.json',
      'threat_model.json',
      'compliance_report.json',
      'cost_estimate.json',
    ]);
  });

  it('exports the feedback stage and the optional stages', () => {
    expect(FEEDBACK_STAGE).toBe('11-feedback-loop');
    expect(SDLC_OPTIONAL_STAGES).toEqual(['12-security-threat-model', '13-compliance-checker', '14-cost-estimation']);
    expect(isSdlcStage('07-code')).toBe(true);
    expect(isSdlcStage('07-coding')).toBe(false);
  });
});
