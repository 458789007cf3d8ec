import { describe, expect, it } from 'vitest';
import { mapAgentToStage, orderByPipeline, stageKeyword } from '../../src/pipeline/stage-mapping.js';
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

describe('stageKeyword and orderByPipeline', () => {
  it('strips the NN- prefix', () => {
    expect(stageKeyword('06-Architecture')).toBe('architecture');
    expect(stageKeyword('custom')).toBe('custom');
  });

  it('orders by pipeline, dedupes and keeps unknown ids last', () => {
    expect(orderByPipeline(['08-testing', 'zzz', '07-code', '08-testing'], SDLC_STAGES)).toEqual([
      '07-code',
      '08-testing',
      'zzz',
    ]);
  });
});
