import { describe, expect, it } from 'vitest';
import { mapAgentToStage, orderByPipeline, withFeedbackRefresh } from '../../src/pipeline/stage-mapping.js';
import { SDLC_STAGES } from '../../src/pipeline/stage-presets.js';

describe('mapAgentToStage', () => {
  it.each([
    ['07-code', '07-code'],
    ['  07-CODE ', '07-code'],
    ['agent.06-architecture', '06-architecture'],
    ['architecture_agent', '06-architecture'],
    ['architecture-agent', '06-architecture'],
    ['testing', '08-testing'],
    ['Testing Agent', '08-testing'],
    ['feedback_loop_agent', '11-feedback-loop'],
    ['security_threat_model_agent', '12-security-threat-model'],
    ['agent_06-architecture', '06-architecture'],
    ['security', '12-security-threat-model'],
    ['deploy', '09-deployment'],
    ['requirement', '02-requirements'],
    ['cost', '14-cost-estimation'],
    ['feedback', '11-feedback-loop'],
  ])('maps %j to %s', (agent, stage) => {
    expect(mapAgentToStage(agent, SDLC_STAGES)).toBe(stage);
  });

  it.each([[null], [undefined], [''], ['   '], ['marketing'], ['agent.'], ['co'], ['agent.99-nothing']])(
    'maps %j to null',
    (agent) => {
      expect(mapAgentToStage(agent, SDLC_STAGES)).toBeNull();
    },
  );

  it('returns null on an ambiguous prefix instead of guessing', () => {
    expect(mapAgentToStage('cod', ['07-code', '08-coding'])).toBeNull();
    expect(mapAgentToStage('cod', ['07-code'])).toBe('07-code');
  });

  it('only maps to stages of the configured pipeline', () => {
    expect(mapAgentToStage('architecture_agent', ['07-code', '08-testing'])).toBeNull();
    expect(mapAgentToStage('06-architecture', ['07-code'])).toBeNull();
  });

  it('prefers an exact keyword over a prefix match', () => {
    expect(mapAgentToStage('code', ['07-code', '15-code-review'])).toBe('07-code');
  });
});

describe('orderByPipeline', () => {
  it('matches a stage by its id without the NN- prefix, whatever its case', () => {
    expect(mapAgentToStage('architecture', ['06-Architecture'])).toBe('06-Architecture');
    expect(mapAgentToStage('custom', ['custom'])).toBe('custom');
  });

  it('orders by pipeline, dedupes and keeps unknown ids last', () => {
    expect(orderByPipeline(['08-testing', 'zzz', '07-code', '08-testing'], SDLC_STAGES)).toEqual([
      '07-code',
      '08-testing',
      'zzz',
    ]);
  });
});

describe('withFeedbackRefresh: the one rule for rerunning the feedback stage', () => {
  const stages = ['07-code', '08-testing', '11-feedback-loop', '12-security-threat-model'];
  const feedback = '11-feedback-loop';

  it('adds the feedback stage, in pipeline order, when a stage before it reruns', () => {
    expect(withFeedbackRefresh(['08-testing'], stages, feedback)).toEqual(['08-testing', feedback]);
    expect(withFeedbackRefresh(['12-security-threat-model', '07-code'], stages, feedback)).toEqual([
      '07-code',
      feedback,
      '12-security-threat-model',
    ]);
  });

  it('counts a stage the pipeline does not list as upstream (and orders it last)', () => {
    expect(withFeedbackRefresh(['99-custom'], stages, feedback)).toEqual([feedback, '99-custom']);
  });

  it('leaves the list as it is when only later stages rerun, when nothing reruns, or when the feedback stage is in it', () => {
    expect(withFeedbackRefresh(['12-security-threat-model'], stages, feedback)).toEqual(['12-security-threat-model']);
    expect(withFeedbackRefresh([], stages, feedback)).toEqual([]);
    expect(withFeedbackRefresh([feedback, '07-code'], stages, feedback)).toEqual([feedback, '07-code']);
  });

  it('adds the feedback stage whenever its report is outdated, whatever else reruns', () => {
    expect(withFeedbackRefresh([], stages, feedback, { reportOutdated: true })).toEqual([feedback]);
    expect(withFeedbackRefresh(['12-security-threat-model'], stages, feedback, { reportOutdated: true })).toEqual([
      feedback,
      '12-security-threat-model',
    ]);
  });

  it('never adds a feedback stage the pipeline does not run', () => {
    expect(withFeedbackRefresh(['07-code'], ['07-code', '08-testing'], feedback)).toEqual(['07-code']);
    expect(withFeedbackRefresh([], ['07-code'], feedback, { reportOutdated: true })).toEqual([]);
  });

  it('returns a new list, never the one given', () => {
    const rerun = ['12-security-threat-model'];
    expect(withFeedbackRefresh(rerun, stages, feedback)).not.toBe(rerun);
  });
});
