// The example's checks, as pure functions over what the runs left on disk: each returns the problems it found
// (an empty list when all is well), each problem one sentence naming the run.
import type { LoopEvent } from 'goal-loop';
import type { StopReason } from 'goal-loop/contracts';
import type { StageRecord } from './pipeline.js';

/** What one run's events.jsonl says. */
export interface RunEventsSummary {
  readonly iterations: number;
  readonly decisions: readonly StopReason[];
  readonly takeovers: number;
}

/** Reads one run's events: its iterations, its decisions (`loop_completed`, `loop_blocked`) and lock takeovers. */
export function summarizeRunEvents(events: readonly LoopEvent[]): RunEventsSummary {
  const decisions: StopReason[] = [];
  for (const event of events) {
    if (event.type === 'loop_completed') decisions.push('complete');
    if (event.type === 'loop_blocked') decisions.push(event.stopped_on);
  }
  return {
    iterations: events.filter((event) => event.type === 'loop_iteration_started').length,
    decisions,
    takeovers: events.filter((event) => event.type === 'lock_taken_over').length,
  };
}

/**
 * A run's events must hold: one decision, the expected one, as the last event; `loop_iteration_started` numbered
 * 1, 2, … n with no gap or repeat (no iteration counted twice), n the expected count; `seq` 0, 1, 2 … (no event
 * appended twice or lost).
 */
export function checkRunEvents(
  runId: string,
  events: readonly LoopEvent[],
  expected: { readonly stoppedOn: StopReason; readonly iterations: number },
): string[] {
  const problems: string[] = [];
  const { decisions } = summarizeRunEvents(events);
  if (decisions.length !== 1)
    problems.push(`${runId}: ${decisions.length} decisions recorded (${decisions.join(', ') || 'none'}), not one`);
  else if (decisions[0] !== expected.stoppedOn)
    problems.push(`${runId}: stopped on ${decisions[0]}, expected ${expected.stoppedOn}`);
  // A job delivered again after the decision may take over a lock its run's last holder could not release (the
  // database was down): that takeover is logged, and is no step of the run.
  const last = events.filter((event) => event.type !== 'lock_taken_over').at(-1)?.type;
  if (decisions.length > 0 && last !== 'loop_completed' && last !== 'loop_blocked')
    problems.push(`${runId}: the decision is not the last event (${last} came after it)`);
  const started = events.filter((event) => event.type === 'loop_iteration_started').map((event) => event.iteration);
  const counted = started.findIndex((iteration, index) => iteration !== index + 1);
  if (counted >= 0)
    problems.push(`${runId}: iterations started ${started.join(', ')}: not 1, 2, 3 … (at position ${counted + 1})`);
  else if (started.length !== expected.iterations)
    problems.push(`${runId}: ${started.length} iterations, expected ${expected.iterations}`);
  const seqs = events.map((event) => event.seq);
  const broken = seqs.findIndex((seq, index) => seq !== index);
  if (broken >= 0)
    problems.push(`${runId}: event seq ${seqs[broken]} at line ${broken + 1}: an event was appended twice or lost`);
  return problems;
}

/** A stage run on one worker, from its start record to its end (or the worker's death). */
export interface StageInterval {
  readonly runId: string;
  readonly stage: string;
  readonly iteration: number;
  readonly pid: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Pairs each start record with its end record (same run, stage, iteration and pid, in log order). A start with
 * no end is a stage cut off by a killed worker, ending when it died (`killed`: pid → time of death); a live
 * worker's start without an end is a problem.
 */
export function stageIntervals(
  records: readonly StageRecord[],
  killed: ReadonlyMap<number, number>,
): { intervals: StageInterval[]; problems: string[] } {
  const open = new Map<string, StageRecord>();
  const intervals: StageInterval[] = [];
  const problems: string[] = [];
  const key = (record: StageRecord): string => `${record.runId}\n${record.stage}\n${record.iteration}\n${record.pid}`;
  for (const record of records) {
    const started = open.get(key(record));
    if (record.phase === 'start') {
      if (started !== undefined) problems.push(`${describe(record)} started twice without ending`);
      open.set(key(record), record);
    } else if (started === undefined) problems.push(`${describe(record)} ended without starting`);
    else {
      open.delete(key(record));
      intervals.push({ ...started, start: started.at, end: record.at });
    }
  }
  for (const started of open.values()) {
    const death = killed.get(started.pid);
    if (death === undefined) problems.push(`${describe(started)} never ended, yet its worker was not killed`);
    else intervals.push({ ...started, start: started.at, end: death });
  }
  return { intervals, problems };
}

/** No two stage runs of one run may overlap in time: one run's stages run one at a time, on one worker at a time. */
export function findOverlaps(intervals: readonly StageInterval[]): string[] {
  const problems: string[] = [];
  const byRun = new Map<string, StageInterval[]>();
  for (const interval of intervals) byRun.set(interval.runId, [...(byRun.get(interval.runId) ?? []), interval]);
  for (const [runId, runIntervals] of byRun) {
    const sorted = [...runIntervals].sort((a, b) => a.start - b.start);
    let latest: StageInterval | undefined;
    for (const interval of sorted) {
      if (latest !== undefined && interval.start < latest.end)
        problems.push(
          `${runId}: ${interval.stage} (iteration ${interval.iteration}) on pid ${interval.pid} started ${(latest.end - interval.start).toFixed(1)} ms before ${latest.stage} (iteration ${latest.iteration}) on pid ${latest.pid} ended`,
        );
      if (latest === undefined || interval.end > latest.end) latest = interval;
    }
  }
  return problems;
}

const describe = (record: StageRecord): string =>
  `${record.runId}: ${record.stage} (iteration ${record.iteration}) on pid ${record.pid}`;
