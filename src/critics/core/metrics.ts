import { z } from 'zod';
import { type Issue, refuseInvalidOptions, refuseOptions } from '../../errors.js';
import { pushAll } from '../../kit/record.js';
import { isObject } from '../../kit/zod-fast-path.js';
import type { OutcomeRecord } from '../contracts/outcome.js';
import type { ExecutionTrace } from '../contracts/result.js';
import type { TraceRecord } from '../contracts/trace.js';
import { healthFlags } from './health-flags.js';
import type { CriticMetrics, OverallMetrics } from './metrics-types.js';
import { outcomeFigures, outcomeIssues } from './outcome-metrics.js';
import { emptyTally, type StageTally, tallyExecution, tallyRoutes } from './stage-tally.js';

// A share, or null without a denominator.
const rate = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

// One stage's figures from its tally.
function stageMetrics(stage: string, t: StageTally) {
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

/** What {@link computeCriticMetrics} takes besides the traces. @public */
export interface CriticMetricsOptions {
  /** What happened to each execution's work after its pipeline ended (`schemas/critic-outcomes.schema.json`). */
  readonly outcomes?: readonly OutcomeRecord[];
}

// Every option has an entry, so a misspelt key is refused, never ignored; the records are checked with their paths.
const optionShape = { outcomes: z.unknown().optional() } satisfies Record<keyof CriticMetricsOptions, z.ZodType>;

/**
 * Every figure of the staged critics across executions, per stage (in the order stages first appear) and overall, with the seed's health flags. @public
 */
export function computeCriticMetrics(
  traces: readonly ExecutionTrace[],
  options: CriticMetricsOptions = {},
): CriticMetrics {
  refuseOptions('computeCriticMetrics', checkedTraces(traces));
  refuseInvalidOptions('computeCriticMetrics', optionShape, options);
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
  const order = [...tallies.keys()];
  const { outcomes } = options;
  if (outcomes !== undefined) refuseOptions('computeCriticMetrics', outcomeIssues(outcomes, new Set(order)));
  const figures = outcomes === undefined ? null : outcomeFigures(traces, outcomes, order);
  const stages = [...tallies].map(([stage, tally]) => ({
    ...stageMetrics(stage, tally),
    predictiveAccuracy: figures?.byStage.get(stage)?.predictiveAccuracy ?? null,
    outcomeDecisions: figures?.byStage.get(stage)?.outcomeDecisions ?? 0,
  }));
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
    reworkRate: figures?.reworkRate ?? null,
    predictiveAccuracy: figures?.predictiveAccuracy ?? null,
  };
  const routesBack = [...routes].map(([edge, count]) => {
    const [from = '', to = ''] = edge.split('\u0000');
    return { from, to, count };
  });
  return {
    stages,
    overall,
    routesBack,
    flags: [...healthFlags(overall, stages), ...(figures?.flags ?? [])],
    shiftLeft: figures?.shiftLeft ?? [],
    criticRoi: figures?.criticRoi ?? [],
    outcomes: figures?.summary ?? null,
  };
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

// The issues of an argument that is not a list of execution traces (each an object with its trace records): the first ones, each at its path.
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

// The issues of the records of trace `index` the metrics cannot read (not an object, no known kind, a field they read missing or of the wrong type).
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
