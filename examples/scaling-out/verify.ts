// Reads what the runs left in the database (events.jsonl, the stage logs) and runs the checks over it.
import type { FileSystem, LoopEvent } from 'goal-loop';
import type { StopReason } from 'goal-loop/contracts';
import { checkRunEvents, findOverlaps, type StageInterval, stageIntervals, summarizeRunEvents } from './checks.js';
import { allPlans, runDirOf, type StageRecord, stageLogOf } from './pipeline.js';

/** What the runs show, for the summary. */
export interface RunsReport {
  readonly problems: string[];
  readonly decisions: ReadonlyMap<StopReason, number>;
  readonly iterations: number;
  readonly stageRuns: number;
  readonly takeovers: number;
  /** The stages the killed worker was cut off in, each with the stage run of the same run that came next. */
  readonly interrupted: readonly { readonly cut: StageInterval; readonly next: StageInterval | null }[];
}

const readLines = async <T>(fs: FileSystem, path: string): Promise<T[]> => {
  const text = (await fs.readText(path)) ?? '';
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
};

/** Checks every run in `fs`; `killed` maps the pid of each killed worker to the time it died. */
export async function verifyRuns(fs: FileSystem, killed: ReadonlyMap<number, number>): Promise<RunsReport> {
  const problems: string[] = [];
  const decisions = new Map<StopReason, number>();
  let iterations = 0;
  let takeovers = 0;
  const intervals: StageInterval[] = [];
  for (const plan of allPlans()) {
    const events = await readLines<LoopEvent>(fs, `${runDirOf(plan.runId)}/events.jsonl`);
    problems.push(...checkRunEvents(plan.runId, events, plan.expected));
    const summary = summarizeRunEvents(events);
    for (const decision of summary.decisions) decisions.set(decision, (decisions.get(decision) ?? 0) + 1);
    iterations += summary.iterations;
    takeovers += summary.takeovers;
    const paired = stageIntervals(await readLines<StageRecord>(fs, stageLogOf(plan.runId)), killed);
    problems.push(...paired.problems);
    intervals.push(...paired.intervals);
  }
  problems.push(...findOverlaps(intervals));
  const interrupted = interruptedStages(intervals, killed);
  if (killed.size === 0) problems.push('no worker was killed: the runs ended before the kill was due');
  else if (interrupted.length < killed.size)
    problems.push('a killed worker was not in the middle of a stage when it died');
  for (const { cut, next } of interrupted)
    if (next === null) problems.push(`${cut.runId}: no worker went on with the run after the kill`);
  return { problems, decisions, iterations, stageRuns: intervals.length, takeovers, interrupted };
}

// The stages a killed worker was cut off in (their intervals end at its death), each with what ran next on its run.
function interruptedStages(
  intervals: readonly StageInterval[],
  killed: ReadonlyMap<number, number>,
): RunsReport['interrupted'] {
  return intervals
    .filter((interval) => killed.get(interval.pid) === interval.end)
    .map((cut) => {
      const next = intervals
        .filter((interval) => interval.runId === cut.runId && interval.start >= cut.end)
        .sort((a, b) => a.start - b.start)[0];
      return { cut, next: next ?? null };
    });
}
