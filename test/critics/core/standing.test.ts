import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutcomeRecord } from '../../../src/critics/contracts/outcome.js';
import type { ExecutionTrace } from '../../../src/critics/contracts/result.js';
import { computeCriticMetrics } from '../../../src/critics/core/metrics.js';
import { renderCriticReport } from '../../../src/critics/core/report.js';
import { criticStanding } from '../../../src/critics/core/standing.js';
import { StagedPipeline } from '../../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../../src/testing/memory-file-system.js';
import { drive, planOf } from './drive.js';

const STAGES = ['plan', 'code', 'test', 'deploy'];
const accept = { decision: 'accept' };

// One execution of the pure machine: the plan critic retries plan's first attempt when `planFlawed`; every other
// decision (the lenient code critic's included) is an accept.
function execution(id: string, planFlawed: boolean): ExecutionTrace {
  const reply = (stage: string, attempt: number) =>
    planFlawed && stage === 'plan' && attempt === 1
      ? { decision: 'retry', issues: [{ issue: 'no criteria' }] }
      : accept;
  const { state, trace } = drive(planOf(STAGES), reply, { generatorCost: 1 });
  if (state.status === 'running') throw new Error('unfinished');
  return { executionId: id, status: state.status, escalation: state.escalation, trace };
}

// Forty executions, every fourth with a flawed plan its critic caught; half of them shipped a defect born in code.
const executions = Array.from({ length: 40 }, (_, i) => execution(`f${i}`, i % 4 === 0));
const outcomes: OutcomeRecord[] = executions.map((e, i) =>
  i % 2 === 0
    ? { executionId: e.executionId, defect: true, origin: 'code', foundAt: 'post_deployment', reworkCostUsd: 12 }
    : { executionId: e.executionId, defect: false },
);

describe('outcomes to standing', () => {
  const metrics = computeCriticMetrics(executions, { outcomes });
  const stage = (id: string) => metrics.stages.find((s) => s.stage === id);

  it('a lenient code critic that passed a code defect in half the features has low predictive accuracy', () => {
    expect(stage('code')).toMatchObject({ predictiveAccuracy: 0.5, outcomeDecisions: 40 });
    // The plan critic caught its defects: its rejects led to clean plans, its accepts were not followed by a
    // defect born in the plan.
    expect(stage('plan')).toMatchObject({ predictiveAccuracy: 1, outcomeDecisions: 50 });
    // The test critic passed code that was already defective: a defect born before it counts against it too.
    expect(stage('test')?.predictiveAccuracy).toBe(0.5);
    expect(metrics.overall.reworkRate).toBe(0.5);
    expect(metrics.outcomes).toMatchObject({ recorded: 40, defects: 20, postDeployment: 20, meanReworkCostUsd: 12 });
  });

  it('gives the code critic less than full standing; the plan critic keeps full standing', () => {
    const report = criticStanding(metrics, { threshold: 0.85 });
    expect(report.byStage).toEqual({ plan: 'full', code: 'probation', test: 'probation' });
    expect(report.critics.find((c) => c.stage === 'code')?.reasons[0]).toBe(
      'outcome accuracy 50.0% over 40 decisions is below 85.0%',
    );
    // Humans disagreeing with it as well revoke it; humans agreeing keep it on probation.
    const calibration = (accuracy: number) => ({
      threshold: 0.85,
      critics: [{ stage: 'code', labelled: 50, agreed: 0, accuracy, recalibrate: accuracy < 0.85, byPeriod: [] }],
      unlabelled: [],
      unknownLabels: [],
    });
    expect(criticStanding(metrics, { calibration: calibration(0.6) }).byStage.code).toBe('revoked');
    expect(criticStanding(metrics, { calibration: calibration(0.95) }).byStage.code).toBe('probation');
  });

  it('a pipeline given that standing does not let the code critic accept alone', async () => {
    const { byStage } = criticStanding(metrics);
    const critic = async () => ({ decision: 'accept' as const });
    const generate = async () => ({ output: 'x' });
    const pipeline = new StagedPipeline({
      fs: createMemoryFileSystem(),
      dir: 'c',
      clock: createManualClock(0),
      standing: byStage,
      stages: [
        { id: 'plan', generate, critic },
        { id: 'code', generate, critic },
        { id: 'test', generate, critic },
        { id: 'deploy', generate },
      ],
    });
    const result = await pipeline.run({ executionId: 'next', spec: null });
    expect(result).toMatchObject({ status: 'escalated', escalation: 'probation_review', outputs: { plan: 'x' } });
  });

  it('standing recovers as later executions bear the critic out', () => {
    const later = Array.from({ length: 160 }, (_, i) => execution(`g${i}`, false));
    const clean = later.map((e): OutcomeRecord => ({ executionId: e.executionId, defect: false }));
    const recovered = computeCriticMetrics([...executions, ...later], { outcomes: [...outcomes, ...clean] });
    expect(criticStanding(recovered).byStage.code).toBe('full');
  });

  it('the shift-left profile and the ROI: the plan critic caught 10 defects worth 12 each', () => {
    expect(metrics.shiftLeft).toEqual([
      { at: 'plan', defects: 10, share: 1 / 3 },
      { at: 'code', defects: 0, share: 0 },
      { at: 'test', defects: 0, share: 0 },
      { at: 'deploy', defects: 0, share: 0 },
      { at: 'post_deployment', defects: 20, share: 2 / 3 },
    ]);
    const roi = metrics.criticRoi.find((r) => r.stage === 'plan');
    expect(roi).toMatchObject({ caught: 10, preventedUsd: 120, criticCostUsd: 0 });
    expect(metrics.criticRoi.find((r) => r.stage === 'code')).toMatchObject({ caught: 0, preventedUsd: 0 });
  });

  it('the report shows outcome accuracy, the shift-left profile, the ROI and the standing', () => {
    const report = renderCriticReport(metrics, { standing: criticStanding(metrics) });
    expect(report).toContain('40 executions with an outcome: 50.0% needed rework (20 found after deployment)');
    expect(report).toContain('| 100.0% | 50.0% | $0.00 / $40.00 |');
    expect(report).toContain('| post_deployment | 20 | 66.7% |');
    expect(report).toContain('| plan | 10 | $0.00 | $120.00 | – |');
    expect(report).toContain(
      '| code | probation | outcome accuracy 50.0% over 40 decisions is below 85.0%; no calibration',
    );
    const plain = renderCriticReport(computeCriticMetrics(executions));
    expect(plain).not.toContain('## Outcomes');
    expect(plain).not.toContain('## Standing');
  });

  it('flags a critic that costs more than the rework it prevented', () => {
    const costly = Array.from({ length: 4 }, (_, i) => {
      const { state, trace } = drive(planOf(STAGES), () => ({ decision: 'accept', costUsd: 1 }));
      return { executionId: `c${i}`, status: state.status as 'completed', escalation: null, trace };
    });
    const shipped = costly.map(
      (e): OutcomeRecord => ({
        executionId: e.executionId,
        defect: true,
        foundAt: 'post_deployment',
        reworkCostUsd: 5,
      }),
    );
    const flagged = computeCriticMetrics(costly, { outcomes: shipped }).flags.filter(
      (flag) => flag.code === 'critic_costs_more_than_it_saves',
    );
    expect(flagged.map((flag) => flag.stage)).toEqual(['plan', 'code', 'test']);
    expect(flagged[0]?.message).toBe(
      'the plan critic cost $4.00 and prevented about $0.00 of rework: it costs more than it saves',
    );
    expect(metrics.flags.map((flag) => flag.code)).not.toContain('critic_costs_more_than_it_saves');
  });

  it('without outcomes nothing is judged and the call stays as it was', () => {
    const plain = computeCriticMetrics(executions);
    expect(plain).toMatchObject({ shiftLeft: [], criticRoi: [], outcomes: null });
    expect(plain.overall.reworkRate).toBeNull();
    expect(plain.stages.every((s) => s.predictiveAccuracy === null)).toBe(true);
    expect(criticStanding(plain).byStage).toEqual({ plan: 'full', code: 'full', test: 'full' });
  });
});

describe('bad outcomes and options', () => {
  it('names each wrong field, an execution given twice and an unknown stage at its path', () => {
    const bad = [
      { executionId: 'f0', defect: true, origin: 'ui', foundAt: 'nowhere' },
      { executionId: 'f0', defect: false },
    ] as OutcomeRecord[];
    expect(() => computeCriticMetrics(executions, { outcomes: bad })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        issues: [expect.objectContaining({ code: 'duplicate_id', path: ['outcomes', 1, 'executionId'] })],
      }),
    );
    expect(() => computeCriticMetrics(executions, { outcomes: [bad[0] as OutcomeRecord] })).toThrow(
      expect.objectContaining({
        issues: [
          expect.objectContaining({ code: 'unknown_stage', path: ['outcomes', 0, 'origin'] }),
          expect.objectContaining({ code: 'unknown_stage', path: ['outcomes', 0, 'foundAt'] }),
        ],
      }),
    );
    const wrong = [{ executionId: 'f0', defect: true, reworkCostUsd: -1 }] as unknown as OutcomeRecord[];
    expect(() => computeCriticMetrics(executions, { outcomes: wrong })).toThrow(/\$\.outcomes\[0\]\.foundAt/);
    expect(() => computeCriticMetrics(executions, { outcome: [] } as never)).toThrow(/outcome/);
    expect(() => criticStanding(computeCriticMetrics([]), { threshold: 2 })).toThrow(/threshold/);
    expect(() => criticStanding(computeCriticMetrics([]), { threshold: 0.6, revokeBelow: 0.7 })).toThrow(/revokeBelow/);
  });

  it('lists outcomes of executions it does not have, without judging them', () => {
    const extra: OutcomeRecord = { executionId: 'elsewhere', defect: true, foundAt: 'post_deployment' };
    const metrics = computeCriticMetrics(executions, { outcomes: [...outcomes, extra] });
    expect(metrics.outcomes?.unmatched).toEqual(['elsewhere']);
    expect(metrics.overall.reworkRate).toBe(0.5);
  });
});

describe('standing over any figures', () => {
  it('never rises when an accuracy falls (outcomes or calibration)', () => {
    const rank = { full: 2, probation: 1, revoked: 0 } as const;
    const base = computeCriticMetrics([execution('a', false)]);
    const at = (outcome: number, calibration: number | null) => {
      const metrics = {
        ...base,
        stages: base.stages.map((s) => ({ ...s, predictiveAccuracy: outcome, outcomeDecisions: 20 })),
      };
      const critics =
        calibration === null
          ? []
          : [{ stage: 'plan', labelled: 50, agreed: 0, accuracy: calibration, recalibrate: false, byPeriod: [] }];
      const report = criticStanding(metrics, {
        calibration: { threshold: 0.85, critics, unlabelled: [], unknownLabels: [] },
      });
      return rank[report.byStage.plan ?? 'full'];
    };
    const share = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(share, share, fc.option(share), (a, b, c) => {
        const [low, high] = a < b ? [a, b] : [b, a];
        expect(at(low, c)).toBeLessThanOrEqual(at(high, c));
        if (c !== null) expect(at(a, Math.min(c, 0.5))).toBeLessThanOrEqual(at(a, c));
      }),
      { numRuns: 300 },
    );
  });

  it('a critic is measured from exactly minOutcomes decisions with an outcome, not from one fewer', () => {
    const base = computeCriticMetrics([execution('a', false)]);
    const standingAt = (outcomeDecisions: number) =>
      criticStanding(
        { ...base, stages: base.stages.map((s) => ({ ...s, predictiveAccuracy: 0.6, outcomeDecisions })) },
        { minOutcomes: 10 },
      ).critics.find((critic) => critic.stage === 'plan');
    expect(standingAt(9)).toMatchObject({
      standing: 'full',
      reasons: ['outcomes judge 9 of its decisions (10 needed): not measured yet', 'no calibration against humans'],
    });
    expect(standingAt(10)).toMatchObject({
      standing: 'probation',
      reasons: ['outcome accuracy 60.0% over 10 decisions is below 85.0%', 'no calibration against humans'],
    });
  });

  it('an accuracy exactly at the threshold meets it, for outcomes as for calibration', () => {
    const base = computeCriticMetrics([execution('a', false)]);
    const metrics = {
      ...base,
      stages: base.stages.map((s) => ({ ...s, predictiveAccuracy: 0.75, outcomeDecisions: 20 })),
    };
    const plan = criticStanding(metrics, { threshold: 0.75 }).critics.find((critic) => critic.stage === 'plan');
    expect(plan).toMatchObject({ standing: 'full' });
    expect(plan?.reasons[0]).toBe('outcome accuracy 75.0% over 20 decisions meets 75.0%');
    const calibration = {
      threshold: 0.75,
      critics: [{ stage: 'plan', labelled: 20, agreed: 15, accuracy: 0.75, recalibrate: false, byPeriod: [] }],
      unlabelled: [],
      unknownLabels: [],
    };
    const calibrated = criticStanding(metrics, { threshold: 0.75, calibration }).critics.find(
      (c) => c.stage === 'plan',
    );
    expect(calibrated?.reasons[1]).toBe('calibration against humans 75.0% meets 75.0%');
  });
});
