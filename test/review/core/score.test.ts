import { describe, expect, it } from 'vitest';
import { consistencyScore, countSeverities, pipelineHealth } from '../../../src/review/core/score.js';
import { list, reviewMutated } from '../fixtures.js';

describe('score and health', () => {
  it('costs 10 per CRITICAL, 3 per WARNING, 0.5 per INFO, floor 0', () => {
    expect(consistencyScore({ critical: 0, warning: 0, info: 0 })).toBe(100);
    expect(consistencyScore({ critical: 1, warning: 1, info: 1 })).toBe(86.5);
    expect(consistencyScore({ critical: 11, warning: 0, info: 0 })).toBe(0);
  });

  it.each([
    [100, 'HEALTHY'],
    [90, 'HEALTHY'],
    [89.5, 'NEEDS_ATTENTION'],
    [70, 'NEEDS_ATTENTION'],
    [69.5, 'CRITICAL_GAPS'],
    [0, 'CRITICAL_GAPS'],
  ] as const)('%d is %s', (score, health) => {
    expect(pipelineHealth(score)).toBe(health);
  });

  it('reaches each band boundary through real findings', () => {
    // One CRITICAL = 90; one CRITICAL + one INFO = 89.5; three CRITICALs = 70; plus one INFO = 69.5.
    const withMissingStories = (count: number, orphanTests: number) =>
      reviewMutated((run) => {
        for (let index = 0; index < count; index += 1)
          list(run.requirement_spec, 'requirements').push({ id: `FR-10${index}`, type: 'functional', title: 'x' });
        for (let index = 0; index < orphanTests; index += 1)
          list(run.test_report, 'test_cases').push({
            id: `TC-10${index}`,
            story_ids: [],
            requirement_ids: [`FR-10${index}`],
            status: 'passed',
          });
        for (let index = 0; index < count; index += 1)
          (list(run.code_report, 'files')[0] as { implements: string[] }).implements.push(`FR-10${index}`);
        for (let index = 0; index < count; index += 1)
          (list(run.documentation, 'documents')[1] as { covers: string[] }).covers.push(`FR-10${index}`);
      });
    const one = withMissingStories(1, 1);
    expect(one.summary).toMatchObject({
      critical_count: 1,
      warning_count: 0,
      info_count: 0,
      overall_consistency_score: 90,
      pipeline_health: 'HEALTHY',
    });
    const counts = countSeverities([{ severity: 'CRITICAL' }, { severity: 'INFO' }]);
    expect(pipelineHealth(consistencyScore(counts))).toBe('NEEDS_ATTENTION');
    const three = withMissingStories(3, 3);
    expect(three.summary).toMatchObject({
      critical_count: 3,
      overall_consistency_score: 70,
      pipeline_health: 'NEEDS_ATTENTION',
    });
    const belowBand = withMissingStories(3, 2);
    expect(belowBand.summary).toMatchObject({
      critical_count: 4,
      overall_consistency_score: 60,
      pipeline_health: 'CRITICAL_GAPS',
    });
  });
});
