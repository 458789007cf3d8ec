import { sumUsd } from '../../kit/usd.js';
import type { LoopEvent } from '../contracts/events.js';
import type {
  PathStep,
  ReportIteration,
  ReportStage,
  ReportStop,
  RunReport,
  RunReportInput,
} from './run-report-model.js';

// An iteration while the events are folded into it.
interface Row {
  iteration: number;
  session: number | null;
  sessionIteration: number | null;
  maxIterations: number | null;
  planned: string[];
  stages: ReportStage[];
  resumed: boolean;
  evaluated: ReportIteration['evaluated'];
  retry: ReportIteration['retry'];
  stops: ReportStop[];
  lateCostUsd: number;
}

// The fold over the events: the iterations, the path through them, the stops in order.
interface Walk {
  readonly rows: Map<number, Row>;
  readonly path: PathStep[];
  readonly stops: ReportStop[];
  sessions: number;
  via: string | null;
}

/** Folds what was read of a run into the report's data. @internal */
export function buildRunReport(input: RunReportInput): RunReport {
  const walk: Walk = { rows: new Map(), path: [], stops: [], sessions: 0, via: null };
  for (const event of input.events) foldEvent(walk, event);
  for (const n of input.evaluations.keys()) rowOf(walk, n);
  // Without iteration events (a lost log), the iterations on disk still make a path, in order, before any stop.
  if (!walk.path.some((step) => step.kind === 'iteration'))
    walk.path.unshift(
      ...[...walk.rows.keys()]
        .sort((a, b) => a - b)
        .map((n): PathStep => ({ kind: 'iteration', iteration: n, via: null })),
    );
  const { state } = input;
  const stop = state === null ? (walk.stops.at(-1) ?? null) : state.stop;
  const lastStep = walk.path.at(-1);
  if (stop !== null && (lastStep?.kind !== 'stop' || lastStep.stop.stoppedOn !== stop.stoppedOn))
    walk.path.push({ kind: 'stop', stop, via: null });
  const iterations = [...walk.rows.values()]
    .sort((a, b) => a.iteration - b.iteration)
    .map((row): ReportIteration => {
      const file = input.evaluations.get(row.iteration);
      return {
        ...row,
        evaluationPath: file?.path ?? `${input.runDir}/iterations/${row.iteration}/evaluation.json`,
        evaluation: file?.evaluation ?? null,
        spentUsd: sumUsd(
          row.stages.map((stage) => stage.costUsd),
          row.lateCostUsd,
        ),
      };
    });
  return {
    runDir: input.runDir,
    goalId: state?.goalId ?? input.events.at(-1)?.goal_id ?? null,
    sessions: walk.sessions,
    iterations,
    path: walk.path,
    stop,
    open:
      state !== null && state.stop === null
        ? { phase: state.phase, pausedBy: lastStep?.kind === 'stop' ? lastStep.stop : null }
        : null,
    spent: spentOf(input, iterations),
    problems: input.problems,
  };
}

// The run's spend: metrics.json (what budgets check), else loop-state.json, else the stages' recorded costs.
function spentOf(input: RunReportInput, iterations: readonly ReportIteration[]): RunReport['spent'] {
  if (input.metricsSpentUsd !== null) return { usd: input.metricsSpentUsd, source: 'metrics.json' };
  if (input.state !== null) return { usd: input.state.spentUsd, source: 'loop-state.json' };
  if (iterations.length === 0) return null;
  return { usd: sumUsd(iterations.map((row) => row.spentUsd)), source: 'stage costs in events.jsonl' };
}

// The row of iteration n, created on first sight.
function rowOf(walk: Walk, n: number): Row {
  const existing = walk.rows.get(n);
  if (existing !== undefined) return existing;
  const row: Row = {
    iteration: n,
    session: null,
    sessionIteration: null,
    maxIterations: null,
    planned: [],
    stages: [],
    resumed: false,
    evaluated: null,
    retry: null,
    stops: [],
    lateCostUsd: 0,
  };
  walk.rows.set(n, row);
  return row;
}

// One event into the walk.
function foldEvent(walk: Walk, event: LoopEvent): void {
  switch (event.type) {
    case 'loop_iteration_started': {
      if (event.session_iteration === 1 || walk.sessions === 0) walk.sessions += 1;
      const row = rowOf(walk, event.iteration);
      Object.assign(row, {
        session: walk.sessions,
        sessionIteration: event.session_iteration ?? null,
        maxIterations: event.max_iterations,
        planned: [...event.stages],
      });
      const after = walk.path.at(-1);
      walk.path.push({ kind: 'iteration', iteration: event.iteration, via: walk.via ?? afterStop(after) });
      walk.via = null;
      return;
    }
    case 'stage_started':
      rowOf(walk, event.iteration).stages.push({
        stage: event.stage,
        status: 'interrupted',
        costUsd: 0,
        durationMs: 0,
      });
      return;
    case 'stage_completed': {
      const { stages } = rowOf(walk, event.iteration);
      const done: ReportStage = {
        stage: event.stage,
        status: event.status,
        costUsd: event.cost_usd,
        durationMs: event.duration_ms,
        ...(event.detail === undefined ? {} : { detail: event.detail }),
      };
      // The run it completes: the last one of that stage still open (a resumed stage was started twice).
      let open = stages.length - 1;
      while (open >= 0 && !(stages[open]?.stage === event.stage && stages[open]?.status === 'interrupted')) open -= 1;
      if (open === -1) stages.push(done);
      else stages[open] = done;
      return;
    }
    case 'loop_iteration_retrying_stages':
      rowOf(walk, event.iteration).retry = { stages: [...event.stages], reason: event.reason };
      walk.via = `retry ${event.stages.join(', ')}`;
      return;
    case 'loop_completed':
    case 'loop_blocked': {
      const stop: ReportStop =
        event.type === 'loop_completed'
          ? { stoppedOn: 'complete', reason: event.reason, iteration: event.iteration }
          : { stoppedOn: event.stopped_on, reason: event.reason, iteration: event.iteration };
      walk.stops.push(stop);
      if (event.iteration > 0) rowOf(walk, event.iteration).stops.push(stop);
      walk.path.push({ kind: 'stop', stop, via: null });
      return;
    }
    case 'loop_resumed': {
      if (event.iteration > 0) rowOf(walk, event.iteration).resumed = true;
      if (event.iteration > 0) walk.path.push({ kind: 'iteration', iteration: event.iteration, via: 'resumed' });
      return;
    }
    case 'goal_evaluated':
      if (event.iteration > 0)
        rowOf(walk, event.iteration).evaluated = { status: event.status, score: event.score, reason: event.reason };
      return;
    // A stage cost reported after the loop stopped waiting counts in the iteration its stage ran in.
    case 'late_cost_recorded':
      if (event.stage_iteration > 0) rowOf(walk, event.stage_iteration).lateCostUsd += event.cost_usd;
      return;
    case 'goal_changed':
    case 'lock_taken_over':
    case 'late_cost_unreadable':
      return;
    default: {
      const unknown: never = event;
      throw new Error(`unknown loop event type ${String((unknown as { type?: unknown }).type)}`);
    }
  }
}

// The label of an edge from a stop into a fresh iteration.
const afterStop = (step: PathStep | undefined): string | null => (step?.kind === 'stop' ? 'new session' : null);
