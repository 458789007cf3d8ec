import { describe, expect, it } from 'vitest';
import { parseCalibrationLabels } from '../../../src/critics/contracts/labels.js';
import type { ExecutionTrace } from '../../../src/critics/contracts/result.js';
import type { TraceRecord } from '../../../src/critics/contracts/trace.js';
import { calibrationReport, sampleForCalibration } from '../../../src/critics/core/calibration.js';
import { drive, planOf } from './drive.js';

// Executions whose plan critic retries the first attempt when i is odd; test records carry the month.
function traces(count: number): ExecutionTrace[] {
  return Array.from({ length: count }, (_, i) => {
    const replies = i % 2 === 1 ? [{ decision: 'retry' }] : [];
    const { state, trace } = drive(planOf(['plan', 'code']), (_s, _a, n) => replies[n] ?? { decision: 'accept' });
    const month = i < count / 2 ? '2026-10' : '2026-11';
    const dated = trace.map((record): TraceRecord => ({ ...record, ts: `${month}-01T00:00:00.000Z` }));
    return {
      executionId: `x${i}`,
      status: state.status === 'completed' ? 'completed' : 'escalated',
      escalation: null,
      trace: dated,
    };
  });
}

describe('sampleForCalibration', () => {
  it('draws up to perDecision accepts and rejects per critic, the same for the same seed in any order', () => {
    const all = traces(40);
    const sample = sampleForCalibration(all, { perDecision: 5, seed: 's1' });
    expect(sample.items).toHaveLength(10);
    expect(sample.items.filter((item) => item.decision === 'reject')).toHaveLength(5);
    expect(sample.items.every((item) => item.stage === 'plan')).toBe(true);
    expect(sampleForCalibration([...all].reverse(), { perDecision: 5, seed: 's1' })).toEqual(sample);
    expect(sampleForCalibration(all, { perDecision: 5, seed: 's2' }).items).not.toEqual(sample.items);
    const reject = sample.items.find((item) => item.decision === 'reject');
    expect(reject).toMatchObject({ verdict: 'retry', attempt: 1, outputHash: 'plan#1' });
    expect(sampleForCalibration(all, { seed: 's' }).items).toHaveLength(25 + 20);
  });

  it('takes a numeric seed, sampling as its decimal text does', () => {
    const all = traces(40);
    const numeric = sampleForCalibration(all, { perDecision: 5, seed: 29 });
    expect(numeric).toEqual(sampleForCalibration(all, { perDecision: 5, seed: '29' }));
    expect(numeric.seed).toBe('29');
    expect(numeric.items).not.toEqual(sampleForCalibration(all, { perDecision: 5, seed: 30 }).items);
  });
});

describe('calibrationReport', () => {
  it('gives accuracy per critic and period, and recalibrate below the threshold', () => {
    const sample = sampleForCalibration(traces(8), { perDecision: 25, seed: 'k' });
    const labels = sample.items.map((item, i) => ({
      id: item.id,
      human: i % 4 === 0 ? (item.decision === 'accept' ? ('reject' as const) : ('accept' as const)) : item.decision,
    }));
    const parsed = parseCalibrationLabels({
      schema_version: 1,
      labels: [...labels.slice(1), { id: 'ghost', human: 'accept' }],
    });
    if (!parsed.success) throw new Error('labels did not parse');
    const report = calibrationReport(sample, parsed.data);
    const plan = report.critics.find((critic) => critic.stage === 'plan');
    expect(plan).toMatchObject({ labelled: 11, recalibrate: true });
    expect(plan?.byPeriod.map((p) => p.period)).toEqual(['2026-10', '2026-11']);
    expect(report.unlabelled).toEqual([sample.items[0]?.id]);
    expect(report.unknownLabels).toEqual(['ghost']);
    const lenient = calibrationReport(sample, parsed.data, { threshold: 0.5 });
    expect(lenient.critics.every((critic) => !critic.recalibrate)).toBe(true);
  });

  it('labels files are parsed strictly, every issue with its path', () => {
    expect(parseCalibrationLabels({ schema_version: 2, labels: [{ id: '', human: 'maybe' }] })).toMatchObject({
      success: false,
      issues: [{ path: ['schema_version'] }, { path: ['labels', 0, 'id'] }, { path: ['labels', 0, 'human'] }],
    });
    const twice = {
      schema_version: 1,
      labels: [
        { id: 'a', human: 'accept' },
        { id: 'a', human: 'reject' },
      ],
    };
    expect(parseCalibrationLabels(twice)).toMatchObject({
      success: false,
      issues: [{ code: 'duplicate_id', path: ['labels', 1, 'id'] }],
    });
  });
});
