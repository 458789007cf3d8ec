import type { MetricOperator } from '../contracts/goal.js';

/** An observed metric value read as a number, or why it is not one. @public */
export type MetricReading =
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'not_a_number'; readonly why: string };

// A decimal number with an optional sign, fraction and exponent; no hex, no `_`, no `Infinity`.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Reads an observed metric value as a number: a finite JSON number, or a string that is a decimal number once trimmed
 * (`"42"`, `" 4.5 "`, `"1e3"`). @public
 */
export function readMetricValue(raw: unknown): MetricReading {
  if (typeof raw === 'number') {
    return Number.isFinite(raw)
      ? { kind: 'number', value: raw }
      : { kind: 'not_a_number', why: `${raw} is not a finite number` };
  }
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (trimmed === '') return { kind: 'not_a_number', why: 'an empty string is not a number' };
    if (!DECIMAL.test(trimmed))
      return { kind: 'not_a_number', why: `the string ${JSON.stringify(clip(raw))} is not a decimal number` };
    const value = Number(trimmed);
    return Number.isFinite(value)
      ? { kind: 'number', value }
      : { kind: 'not_a_number', why: `the string ${JSON.stringify(clip(raw))} is not a finite number` };
  }
  if (raw === null) return { kind: 'not_a_number', why: 'null is not a number' };
  if (Array.isArray(raw)) return { kind: 'not_a_number', why: 'an array is not a number' };
  if (typeof raw === 'object') return { kind: 'not_a_number', why: 'an object is not a number' };
  if (typeof raw === 'boolean') return { kind: 'not_a_number', why: `the boolean ${String(raw)} is not a number` };
  return { kind: 'not_a_number', why: `a value of type ${typeof raw} is not a number` };
}

/** Compares an observed number with a threshold using the criterion's operator. @public */
export function compareMetric(observed: number, operator: MetricOperator, threshold: number): boolean {
  switch (operator) {
    case '>=':
      return observed >= threshold;
    case '>':
      return observed > threshold;
    case '<=':
      return observed <= threshold;
    case '<':
      return observed < threshold;
    case '==':
      return observed === threshold;
    case '!=':
      return observed !== threshold;
    default: {
      const unreachable: never = operator;
      throw new Error(`unknown metric operator ${String(unreachable)}`);
    }
  }
}

/** The observed value worth keeping in an evaluation. @internal */
export function observedMetricValue(raw: unknown, reading: MetricReading): unknown {
  if (reading.kind === 'number') return reading.value;
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean') return raw;
  return undefined;
}

// Shortens a string for a detail message.
function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
