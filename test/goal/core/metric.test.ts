import { describe, expect, it } from 'vitest';
import type { MetricOperator } from '../../../src/goal/contracts/goal.js';
import { compareMetric, observedMetricValue, readMetricValue } from '../../../src/goal/core/metric.js';

describe('readMetricValue', () => {
  it.each([
    [0, 0],
    [42, 42],
    [-3.5, -3.5],
    ['42', 42],
    [' 4.5 ', 4.5],
    ['1e3', 1000],
    ['-0.25', -0.25],
    ['.5', 0.5],
    ['+7', 7],
  ])('reads %j as the number %d', (raw, value) => {
    expect(readMetricValue(raw)).toEqual({ kind: 'number', value });
  });

  it.each([
    [null],
    [''],
    ['   '],
    [true],
    [false],
    [[]],
    [[1]],
    [{}],
    [{ value: 1 }],
    ['NaN'],
    ['Infinity'],
    ['-Infinity'],
    ['0x10'],
    ['1_000'],
    ['12abc'],
    ['1e999'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [undefined],
  ])('does not read %j as a number', (raw) => {
    const reading = readMetricValue(raw);
    expect(reading.kind).toBe('not_a_number');
    if (reading.kind === 'not_a_number') expect(reading.why).toMatch(/not a|empty/);
  });

  it('says null is not a number (rstack-agents counted it as 0)', () => {
    expect(readMetricValue(null)).toEqual({ kind: 'not_a_number', why: 'null is not a number' });
  });
});

describe('compareMetric', () => {
  const cases: [number, MetricOperator, number, boolean][] = [
    [90, '>=', 90, true],
    [89, '>=', 90, false],
    [91, '>', 90, true],
    [90, '>', 90, false],
    [90, '<=', 90, true],
    [91, '<=', 90, false],
    [89, '<', 90, true],
    [90, '<', 90, false],
    [0, '==', 0, true],
    [1, '==', 0, false],
    [1, '!=', 0, true],
    [0, '!=', 0, false],
  ];
  it.each(cases)('%d %s %d is %s', (observed, operator, threshold, expected) => {
    expect(compareMetric(observed, operator, threshold)).toBe(expected);
  });
});

describe('observedMetricValue', () => {
  it('keeps numbers and primitives, drops arrays and objects', () => {
    expect(observedMetricValue('42', readMetricValue('42'))).toBe(42);
    expect(observedMetricValue(null, readMetricValue(null))).toBeNull();
    expect(observedMetricValue('', readMetricValue(''))).toBe('');
    expect(observedMetricValue(true, readMetricValue(true))).toBe(true);
    expect(observedMetricValue([1], readMetricValue([1]))).toBeUndefined();
    expect(observedMetricValue({}, readMetricValue({}))).toBeUndefined();
  });
});
