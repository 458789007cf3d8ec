import { describe, expect, it } from 'vitest';
import type { CriterionFact } from '../../../src/goal/core/facts.js';
import { evaluate, FEEDBACK, metric, metricDoc } from './fixtures.js';

describe('metric_threshold', () => {
  it('compares a real number', () => {
    expect(evaluate(metric('m'), metricDoc({ summary: { critical_count: 0 } }))).toMatchObject({
      status: 'PASS',
      observed: 0,
    });
    expect(evaluate(metric('m'), metricDoc({ summary: { critical_count: 2 } }))).toMatchObject({
      status: 'FAIL',
      observed: 2,
      summary: 'summary.critical_count = 2, required == 0',
    });
  });

  it('accepts a numeric string', () => {
    expect(
      evaluate(metric('m', { operator: '>=', value: 40 }), metricDoc({ summary: { critical_count: ' 42 ' } })),
    ).toMatchObject({ status: 'PASS', observed: 42 });
  });

  it.each([[null], [''], [true], [[]], [{}], ['NaN'], ['abc']])(
    'is PENDING for the non-number %j (null is not 0)',
    (value) => {
      const result = evaluate(metric('m'), metricDoc({ summary: { critical_count: value } }));
      expect(result.status).toBe('PENDING');
      expect(result.detail).toContain('not a number');
    },
  );

  it('reads the length of an array (`issues.length == 0`), as rstack-agents does', () => {
    const noIssues = metric('m', { metric: 'issues.length' });
    expect(evaluate(noIssues, metricDoc({ issues: [] }))).toMatchObject({ status: 'PASS' });
    expect(evaluate(noIssues, metricDoc({ issues: [{ id: 'a' }, { id: 'b' }] }))).toMatchObject({ status: 'FAIL' });
    expect(evaluate(noIssues, metricDoc({ issues: 'none' }))).toMatchObject({ status: 'PENDING' });
  });

  it('is PENDING when the metric is absent', () => {
    expect(evaluate(metric('m'), metricDoc({ summary: {} }))).toMatchObject({
      status: 'PENDING',
      summary: 'summary.critical_count not found',
    });
  });

  it('adds the feedback stage when a missing feedback source names no rerun stage', () => {
    const missing: CriterionFact = { kind: 'metric_threshold', source: { state: 'missing', detail: 'no file' } };
    expect(evaluate(metric('m'), missing)).toMatchObject({ status: 'PENDING', rerunStages: [FEEDBACK] });
    expect(evaluate(metric('m', { rerun_stages: ['07-code'] }), missing).rerunStages).toEqual(['07-code']);
    expect(evaluate(metric('m'), missing, { stages: ['07-code'], feedbackStage: FEEDBACK }).rerunStages).toEqual([]);
    expect(evaluate(metric('m', { source: { file: 'm.json' } }), missing).rerunStages).toEqual([]);
  });

  it('is PENDING for a malformed source and FAIL for a refused one', () => {
    expect(
      evaluate(metric('m'), { kind: 'metric_threshold', source: { state: 'malformed', detail: 'bad JSON' } }).status,
    ).toBe('PENDING');
    expect(
      evaluate(metric('m', { source: { file: '../x.json' } }), {
        kind: 'metric_threshold',
        source: { state: 'refused', detail: 'outside the run dir' },
      }).status,
    ).toBe('FAIL');
  });
});
