import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SDLC_STAGES } from '../../../src/pipeline/stage-presets.js';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../../../src/review/core/contract-slots.js';
import { renderRemediationPlan } from '../../../src/review/core/remediation-plan-markdown.js';
import { createReviewStageRunner } from '../../../src/review/review-stage-runner.js';
import { createMemoryFileSystem } from '../../../src/testing/memory-file-system.js';
import { initialStageContext } from '../../kit/stage-context.js';
import { cleanRun, reviewMutated } from '../fixtures.js';

const CORE = REVIEW_CONTRACT_SLOTS.filter((slot) => slot.kind === 'core');
// A shorter pipeline: five core stages (01, 03, 04, 09, 10) do not run in it.
const DROPPED: readonly ContractKey[] = ['transcript', 'documentation', 'plan', 'deployment_report', 'summary'];
const stageOf = (key: ContractKey): string => REVIEW_CONTRACT_SLOTS.find((slot) => slot.key === key)?.stage ?? '';
const pathOf = (key: ContractKey): string =>
  REVIEW_CONTRACT_SLOTS.find((slot) => slot.key === key)?.canonicalPath ?? '';
const SHORT_PIPELINE = SDLC_STAGES.filter((stage) => !DROPPED.map(stageOf).includes(stage));

// The clean run without the contracts of `keys`.
const without =
  (keys: readonly ContractKey[]) =>
  (run: Record<ContractKey, Record<string, unknown>>): void => {
    for (const key of keys) delete (run as Partial<typeof run>)[key];
  };

describe('reviewPipeline: the stages option bounds which contracts are expected', () => {
  it('without stages, every missing core contract is a WARNING', () => {
    const report = reviewMutated(without(DROPPED));
    expect(report.issues.filter((issue) => issue.rule === 'contract.missing')).toHaveLength(DROPPED.length);
    expect(report.summary.overall_consistency_score).toBe(100 - 3 * DROPPED.length);
    expect(report.analysis_scope.contracts_skipped).toEqual([]);
  });

  it('a missing contract of a stage outside the pipeline is skipped: no finding, no cost, listed in analysis_scope', () => {
    const report = reviewMutated(without(DROPPED), { stages: SHORT_PIPELINE });
    expect(report.issues).toEqual([]);
    expect(report.summary.overall_consistency_score).toBe(100);
    expect(report.summary.pipeline_health).toBe('HEALTHY');
    expect(report.pipeline_status).toBe('REVIEWED_AND_COMPLETE');
    expect(report.analysis_scope.contracts_missing).toEqual([]);
    expect(report.analysis_scope.contracts_skipped).toEqual(DROPPED.map(pathOf));
    const states = report.analysis_scope.contracts.filter((entry) => entry.state === 'skipped');
    expect(states.map((entry) => entry.contract)).toEqual(DROPPED);
    expect(renderRemediationPlan(report)).toContain('- Not expected (outside the pipeline), so not findings:');
  });

  it('a stage in the pipeline whose contract is missing still warns', () => {
    const report = reviewMutated(without([...DROPPED, 'code_report']), { stages: SHORT_PIPELINE });
    const missing = report.issues.filter((issue) => issue.rule === 'contract.missing');
    expect(missing.map((issue) => issue.source_agent)).toEqual(['07-code']);
    expect(report.analysis_scope.contracts_missing).toEqual([pathOf('code_report')]);
  });

  it('a present contract of a stage outside the pipeline is still analysed', () => {
    const report = reviewMutated(
      (run) => {
        run.plan = { ...run.plan, timestamp: 'yesterday' };
      },
      { stages: SHORT_PIPELINE },
    );
    expect(report.analysis_scope.contracts_analyzed).toContain(pathOf('plan'));
    expect(report.issues.map((issue) => issue.rule)).toContain('versions.invalid_timestamp');
  });

  it('BLOCKED counts only the expected core contracts', () => {
    const pipeline = ['02-requirements', '05-jira', '07-code', '11-feedback-loop'];
    const missingTwo = reviewMutated(without(['jira_tickets', 'code_report']), { stages: pipeline });
    expect(missingTwo.pipeline_status).toBe('BLOCKED');
    expect(missingTwo.pipeline_complete).toBe(false);
    const missingOne = reviewMutated(without(['code_report']), { stages: pipeline });
    expect(missingOne.pipeline_status).toBe('REVIEWED_AND_COMPLETE');
  });

  it('for any pipeline, exactly the missing core contracts of its stages warn', () => {
    const keys = CORE.map((slot) => slot.key);
    fc.assert(
      fc.property(fc.subarray(keys), fc.subarray<string>([...SDLC_STAGES]), (missing, pipeline) => {
        const report = reviewMutated(without(missing), { stages: pipeline });
        const warned = report.issues
          .filter((issue) => issue.rule === 'contract.missing')
          .map((issue) => issue.source_agent);
        const expected = missing.map(stageOf).filter((stage) => pipeline.includes(stage));
        expect(warned.sort()).toEqual(expected.sort());
        const skippedCore = missing.filter((key) => !pipeline.includes(stageOf(key))).map(pathOf);
        expect(report.analysis_scope.contracts_skipped.filter((path) => skippedCore.includes(path)).sort()).toEqual(
          skippedCore.sort(),
        );
      }),
      { numRuns: 60 },
    );
  });
});

describe('createReviewStageRunner: stages', () => {
  it('a shorter pipeline with its contracts passes at 100, the same run without stages does not', async () => {
    const fs = createMemoryFileSystem();
    const run = cleanRun();
    for (const slot of REVIEW_CONTRACT_SLOTS)
      if (!DROPPED.includes(slot.key))
        await fs.writeText(`runs/r-1/${slot.canonicalPath}`, JSON.stringify(run[slot.key]));
    const context = initialStageContext(fs, 'runs/r-1', { signal: new AbortController().signal, iteration: 1 });
    const clock = { now: () => 0 };
    const short = await createReviewStageRunner({ clock, stages: SHORT_PIPELINE }).run('11-feedback-loop', context);
    expect(short.detail).toBe('no CRITICAL findings — consistency score 100/100');
    const full = await createReviewStageRunner({ clock }).run('11-feedback-loop', context);
    expect(full.detail).toBe('no CRITICAL findings — consistency score 85/100; also 5 WARNING');
  });
});
