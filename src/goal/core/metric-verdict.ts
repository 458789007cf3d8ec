// The verdict of a metric_threshold criterion: its source document read, the metric's value found and compared.
import { readDotPath } from '../../kit/dot-path.js';
import { withFeedbackRefresh } from '../../pipeline/stage-mapping.js';
import type { MetricThresholdCriterion } from '../contracts/goal.js';
import type { DocumentFact } from './facts.js';
import { compareMetric, observedMetricValue, readMetricValue } from './metric.js';

/** The parts of a criterion evaluation a metric_threshold criterion's source decides. @internal */
export interface MetricVerdict {
  readonly status: 'PASS' | 'FAIL' | 'PENDING';
  readonly summary: string;
  readonly detail: string;
  /** The value found at the metric's dot path. */
  readonly observed?: unknown;
  /** For a missing `feedback` source: the stages that refresh it. */
  readonly rerunStages?: readonly string[];
  /** For a `{ file }` source the containment rule refused: `source.file`. */
  readonly refusedField?: 'source.file';
}

/** The pipeline a missing `feedback` metric source is refreshed from. @internal */
export interface MetricPipeline {
  /** The pipeline's stage ids, in order. */
  readonly stages: readonly string[];
  /** The feedback stage id. */
  readonly feedbackStage: string;
}

/** Evaluates a `metric_threshold` criterion from its source document: the real number at the metric's dot path compared with the value. @internal */
export function metricVerdict(
  criterion: MetricThresholdCriterion,
  source: DocumentFact,
  pipeline: MetricPipeline,
): MetricVerdict {
  const label = sourceLabel(criterion);
  const required = `required ${criterion.operator} ${criterion.value}`;
  switch (source.state) {
    case 'refused':
      return {
        status: 'FAIL',
        summary: `${label} refused`,
        detail: `Metric source ${label} was refused: ${source.detail}.`,
        ...(source.reason === undefined ? {} : { refusedField: 'source.file' as const }),
      };
    case 'malformed':
      return {
        status: 'PENDING',
        summary: `${label} is malformed`,
        detail: `Metric source ${label} is malformed: ${source.detail}.`,
      };
    case 'missing': {
      const refresh =
        criterion.source === 'feedback' && criterion.rerun_stages.length === 0
          ? withFeedbackRefresh([], pipeline.stages, pipeline.feedbackStage, { reportOutdated: true })
          : [];
      const hint = refresh.length > 0 ? `; rerun ${refresh.join(', ')} to produce it` : '';
      return {
        ...(refresh.length > 0 ? { rerunStages: refresh } : {}),
        status: 'PENDING',
        summary: `${label} is missing`,
        detail: `Metric source ${label} is missing${hint}.`,
      };
    }
    case 'present':
      break;
    default: {
      const unreachable: never = source;
      throw new Error(`unknown document fact ${String(unreachable)}`);
    }
  }
  const found = readDotPath(source.document, criterion.metric);
  if (!found.found) {
    return {
      status: 'PENDING',
      summary: `${criterion.metric} not found`,
      detail: `Metric ${criterion.metric} was not found in ${label} (${found.why} at ${found.at}).`,
    };
  }
  const reading = readMetricValue(found.value);
  const observed = observedMetricValue(found.value, reading);
  if (reading.kind === 'not_a_number') {
    return {
      observed,
      status: 'PENDING',
      summary: `${criterion.metric} is not a number`,
      detail: `Metric ${criterion.metric} in ${label} is not a number: ${reading.why}.`,
    };
  }
  const passed = compareMetric(reading.value, criterion.operator, criterion.value);
  const summary = `${criterion.metric} = ${reading.value}, ${required}`;
  return {
    observed,
    status: passed ? 'PASS' : 'FAIL',
    summary,
    detail: `${criterion.metric} = ${reading.value} in ${label} (${required}).`,
  };
}

// Names a metric source for messages.
function sourceLabel(criterion: MetricThresholdCriterion): string {
  const source = criterion.source;
  if (source === 'feedback') return 'feedback.json';
  if (source === 'loop_state') return 'loop-state.json';
  return source.file;
}
