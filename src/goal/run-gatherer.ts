import { readOwn } from '../kit/dot-path.js';
import { recordFromEntries } from '../kit/record.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import type { JsonSchemaChecker } from '../runtime/json-schema-check.js';
import type { Goal } from './contracts/goal.js';
import type { LoopState } from './contracts/loop-state.js';
import type { DocumentFact, EvaluationFacts, OutputHistory } from './core/facts.js';
import { metricsStageIssues } from './core/rstack-stages.js';
import { gatherFacts } from './gather.js';
import { readMetricsReading } from './metrics-read.js';
import { readRstackStageStatuses } from './rstack-state.js';

/** Gathers the evaluation's facts of one run, for a record of the loop (or none). @internal */
export interface RunGatherer {
  gather(
    goal: Goal,
    state: LoopState | null,
    options: { readonly iteration: number | null; readonly skipCommands: boolean },
  ): Promise<EvaluationFacts>;
}

/** What a {@link RunGatherer} reads with, from the loop's options. @internal */
export interface RunGathererOptions {
  readonly fs: FileSystem;
  readonly paths: RunPaths;
  readonly stages: readonly string[];
  readonly feedbackStage?: string;
  readonly commands?: CommandRunner;
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  readonly checker: JsonSchemaChecker;
}

/**
 * A gatherer bound to a run: stage statuses come from the loop's record
 * (loop-state.json); a stage it has no record of takes the status an
 * rstack-agents run directory gives it (metrics.json `stage_status`,
 * tasks.json, approvals.json, decisions.json), and is pending when neither
 * says anything. The record itself is the `loop_state` metric source.
 * metrics.json's problems become `metricsIssues`: what the loop refuses the
 * file for, and the `stage_status` entries read that are not statuses.
 *
 * @internal
 */
export function createRunGatherer(options: RunGathererOptions): RunGatherer {
  const { fs, paths, stages } = options;
  return {
    async gather(goal, state, { iteration, skipCommands }) {
      const loopState: DocumentFact =
        state === null
          ? { state: 'missing', detail: `${paths.state} does not exist` }
          : { state: 'present', document: state };
      const recorded = state?.stage_status ?? {};
      const unrecorded = stages.filter((stage) => readOwn(recorded, stage) === undefined);
      // metrics.json is read once, for the stage statuses it gives and for what the loop would refuse it for.
      const metrics = readMetricsReading(fs, paths.metrics);
      const metricsIssues = metrics.then((read) => [...read.issues, ...metricsStageIssues(read.document, unrecorded)]);
      // rstack-agents' files are read alongside the criteria, not before them.
      const document = metrics.then((read) => read.document);
      const statuses = readRstackStageStatuses(fs, paths, unrecorded, document).then((fromRstack) =>
        Object.fromEntries(
          stages.map((stage) => [
            stage,
            readOwn(recorded, stage) ?? readOwn(fromRstack, stage) ?? ('pending' as const),
          ]),
        ),
      );
      const facts = await gatherFacts({
        fs,
        paths,
        goal,
        stages,
        feedbackStage: options.feedbackStage ?? '11-feedback-loop',
        iteration,
        stageStatuses: statuses,
        stageDetails: stageDetailsOf(state),
        loopState,
        commands: options.commands,
        skipCommands,
        concurrency: options.concurrency ?? options.commands?.concurrency ?? 4,
        signal: options.signal,
        checker: options.checker,
      });
      const issues = await metricsIssues;
      const history = historyOf(state);
      return {
        ...facts,
        ...(issues.length === 0 ? {} : { metricsIssues: issues }),
        ...(history === undefined ? {} : { history }),
      };
    },
  };
}

// What the runners said of the stages this iteration ran (loop-state.json's completed_stages), where they said something.
function stageDetailsOf(state: LoopState | null): Readonly<Record<string, string>> {
  const said = (state?.completed_stages ?? []).flatMap((completed) =>
    completed.detail === undefined ? [] : [[completed.stage, completed.detail] as const],
  );
  return recordFromEntries(said);
}

// When each stage last ran and since when the goal holds, from a record that keeps them (older ones do not).
function historyOf(state: LoopState | null): OutputHistory | undefined {
  if (state?.stage_runs === undefined) return undefined;
  return { stageRuns: state.stage_runs, goalSince: state.goal_since ?? 0 };
}
