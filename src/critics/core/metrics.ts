import { type Issue, refuseOptions } from '../../errors.js';
import { pushAll } from '../../kit/record.js';
import { isObject } from '../../kit/zod-fast-path.js';
import type { ExecutionTrace } from '../contracts/result.js';
import type { TraceRecord } from '../contracts/trace.js';
import type { CriticMetrics, HealthFlag, OverallMetrics, StageMetrics } from './metrics-types.js';
import { emptyTally, type StageTally, tallyExecution, tallyRoutes } from './stage-tally.js';

/** The seed's target bands and alarm levels. @public */
export const CRITIC_HEALTH_BANDS = {
  retry: { low: 0.1, high: 0.3 },
  backtrack: { low: 0.05, high: 0.15 },
  systemicBacktrack: 0.25,
  lenientBacktrack: 0.01,
} as const;

// A share, or null without a denominator.
const rate = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);
const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;

// One stage's figures from its tally.
function stageMetrics(stage: string, t: StageTally): StageMetrics {
  return {
    stage,
    executions: t.executions,
    meanIterations: rate(t.generatorCalls, t.executions),
    decisions: t.decisions,
    retryRate: rate(t.retries, t.decisions),
    backtrackRate: rate(t.backtracks, t.decisions),
    completionWithinBudgetRate: rate(t.withinBudget, t.executions),
    escalationRate: rate(t.escalated, t.executions),
    criticAccuracy: rate(t.judgedRight, t.judgedTotal),
    criticCostUsd: t.criticCost,
    generatorCostUsd: t.generatorCost,
    criticToGeneratorCost: rate(t.criticCost, t.generatorCost),
  };
}

// The seed's health flags, overall and per critic.
function healthFlags(overall: OverallMetrics, stages: readonly StageMetrics[]): HealthFlag[] {
  const flags: HealthFlag[] = [];
  const bands = CRITIC_HEALTH_BANDS;
  const { backtrackRate, retryRate } = overall;
  if (backtrackRate !== null && backtrackRate > bands.systemicBacktrack)
    flags.push({
      code: 'systemic_upstream_failure',
      message: `backtracks at ${pct(backtrackRate)} (above 25%): systemic upstream quality failure, not localized errors`,
    });
  if (backtrackRate !== null && backtrackRate < bands.lenientBacktrack)
    flags.push({
      code: 'critics_too_lenient',
      message: `backtracks at ${pct(backtrackRate)} (below 1%): critics too lenient or irrelevant`,
    });
  for (const stage of stages) {
    if (stage.decisions > 0 && stage.retryRate === 0 && stage.backtrackRate === 0 && stage.escalationRate === 0)
      flags.push({
        code: 'critic_never_blocks',
        stage: stage.stage,
        message: `the ${stage.stage} critic never blocks: it is overhead, not a critic`,
      });
  }
  if (retryRate !== null && (retryRate < bands.retry.low || retryRate > bands.retry.high))
    flags.push({
      code: 'retry_rate_out_of_band',
      message: `within-stage retries at ${pct(retryRate)} (target 10–30%): a calibration problem`,
    });
  if (backtrackRate !== null && (backtrackRate < bands.backtrack.low || backtrackRate > bands.backtrack.high))
    flags.push({
      code: 'backtrack_rate_out_of_band',
      message: `backward routes at ${pct(backtrackRate)} (target 5–15%): a calibration problem`,
    });
  return flags;
}

/**
 * Every figure of the staged critics across executions, per stage (in the
 * order stages first appear) and overall, with the seed's health flags:
 * mean iterations, retry and backtrack rates, completion within budget,
 * escalation rate, critic accuracy, and critic cost against generator cost
 * and rework. Pure and linear in the traces' records. `traces` that is not
 * a list of execution traces (an item that is not an object, has no `trace`
 * list, or a record in it that is no trace record) is `INVALID_OPTIONS`
 * naming the first ones at their paths.
 *
 * @example
 * ```ts
 * const metrics = computeCriticMetrics(results); // StagedResult[] are traces
 * for (const flag of metrics.flags) console.warn(flag.message);
 * ```
 * @public
 */
export function computeCriticMetrics(traces: readonly ExecutionTrace[]): CriticMetrics {
  refuseOptions('computeCriticMetrics', checkedTraces(traces));
  const tallies = new Map<string, StageTally>();
  const routes = new Map<string, number>();
  let completed = 0;
  let escalated = 0;
  for (const execution of traces) {
    tallyExecution(tallies, execution);
    tallyRoutes(routes, execution);
    if (execution.status === 'completed') completed += 1;
    else escalated += 1;
  }
  const stages = [...tallies].map(([stage, tally]) => stageMetrics(stage, tally));
  const sum = [...tallies.values()].reduce((total, t) => {
    for (const key of Object.keys(t) as (keyof StageTally)[]) total[key] += t[key];
    return total;
  }, emptyTally());
  const overall: OverallMetrics = {
    executions: traces.length,
    completionRate: rate(completed, traces.length),
    escalationRate: rate(escalated, traces.length),
    decisions: sum.decisions,
    retryRate: rate(sum.retries, sum.decisions),
    backtrackRate: rate(sum.backtracks, sum.decisions),
    criticAccuracy: rate(sum.judgedRight, sum.judgedTotal),
    meanIterations: rate(sum.generatorCalls, sum.executions),
    criticCostUsd: sum.criticCost,
    generatorCostUsd: sum.generatorCost,
    reworkCostUsd: sum.reworkCost,
    criticToGeneratorCost: rate(sum.criticCost, sum.generatorCost),
  };
  const routesBack = [...routes].map(([edge, count]) => {
    const [from = '', to = ''] = edge.split('\u0000');
    return { from, to, count };
  });
  return { stages, overall, routesBack, flags: healthFlags(overall, stages) };
}

// The issues of the traces, or one issue when reading them throws (a throwing getter, a revoked proxy).
function checkedTraces(traces: unknown): Issue[] {
  try {
    return traceListIssues(traces);
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : 'a value that is not an Error';
    return [{ code: 'unreadable', path: ['traces'], message: `reading the traces threw (${why})` }];
  }
}

// At most this many malformed traces are named in a refusal.
const NAMED_ISSUES = 20;

// The issues of an argument that is not a list of execution traces (each an object with its trace records): the
// first ones, each at its path.
function traceListIssues(traces: unknown): Issue[] {
  if (!Array.isArray(traces))
    return [{ code: 'invalid_type', path: ['traces'], message: 'expected a list of execution traces' }];
  const issues: Issue[] = [];
  for (let index = 0; index < traces.length && issues.length < NAMED_ISSUES; index++) {
    const execution: unknown = traces[index];
    if (typeof execution !== 'object' || execution === null)
      issues.push({ code: 'invalid_type', path: ['traces', index], message: 'expected an execution trace' });
    else if (!Array.isArray((execution as { trace?: unknown }).trace))
      issues.push({ code: 'invalid_type', path: ['traces', index, 'trace'], message: 'expected its trace records' });
    else pushAll(issues, recordIssues((execution as { trace: unknown[] }).trace, index));
  }
  return issues.slice(0, NAMED_ISSUES);
}

// What the metrics read of each kind of record (a full parse of every record would cost more than the metrics).
const READ_FIELDS: Readonly<Record<TraceRecord['kind'], (record: Record<string, unknown>) => boolean>> = {
  generated: (r) => isCall(r) && (r.action === null || isObject(r.action)),
  judged: (r) => isCall(r) && typeof r.decision === 'string' && isObject(r.action) && typeof r.action.kind === 'string',
  late_cost: (r) => typeof r.stage === 'string' && typeof r.call === 'string' && typeof r.costUsd === 'number',
  late_cost_unreadable: () => true,
  finished: (r) => typeof r.status === 'string',
};

// The fields every call record has.
const isCall = (r: Record<string, unknown>): boolean =>
  typeof r.stage === 'string' && typeof r.attempt === 'number' && typeof r.costUsd === 'number';

// The issues of the records of trace `index` the metrics cannot read (not an object, no known kind, a field they read
// missing or of the wrong type).
function recordIssues(records: readonly unknown[], index: number): Issue[] {
  const issues: Issue[] = [];
  for (let at = 0; at < records.length && issues.length < NAMED_ISSUES; at++) {
    const record = records[at];
    const kind = isObject(record) ? record.kind : undefined;
    const readable = isObject(record) && typeof kind === 'string' && Object.hasOwn(READ_FIELDS, kind);
    if (!readable || !READ_FIELDS[kind as TraceRecord['kind']](record))
      issues.push({ code: 'invalid_type', path: ['traces', index, 'trace', at], message: 'expected a trace record' });
  }
  return issues;
}
