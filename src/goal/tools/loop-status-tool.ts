import { z } from 'zod';
import { stageStatusSchema } from '../../pipeline/stage-status.js';
import { defineTool, toolError } from '../../ports/define-tool.js';
import type { Tool } from '../../ports/tool.js';
import { goalStatusSchema } from '../contracts/goal-evaluation.js';
import { stopReasonSchema } from '../contracts/stop-reason.js';
import { type LoopStatus, readLoopStatus } from '../loop-status.js';
import type { GoalLoopToolsOptions } from './options.js';
import { issueOutput, runDirInput } from './tool-inputs.js';

/** The input schema of the `loop_status` tool. @public */
export const loopStatusInputSchema = z.strictObject({ run_dir: runDirInput });

const stop = z.strictObject({ stopped_on: stopReasonSchema, reason: z.string() });

/** The output schema of the `loop_status` tool. @public */
export const loopStatusOutputSchema = z.strictObject({
  run_dir: z.string(),
  state: z
    .enum(['not_started', 'in_progress', 'paused', 'stopped'])
    .describe(
      'not_started: no loop ran here; in_progress: a session is open (a loop is running, or one was cut off and ' +
        'resumes on its next run); paused: the open session was paused (an abort, a goal change); stopped: the ' +
        'last session ended (see stop).',
    ),
  goal_id: z.string().nullable(),
  iteration: z.int().describe('The run-wide iteration counter.'),
  phase: z.enum(['idle', 'running_stages', 'evaluating', 'stopped']).nullable(),
  session: z
    .strictObject({
      index: z.int(),
      started_at_iteration: z.int(),
      max_iterations: z.int(),
      iterations: z.int(),
    })
    .nullable(),
  stop: stop.extend({ iteration: z.int() }).nullable().describe('How the last session ended, once it has.'),
  paused: stop.nullable(),
  pending_stages: z.array(z.string()).readonly(),
  current_stage: z.string().nullable().describe('While stages run: the stage in flight.'),
  stage_status: z.record(z.string(), stageStatusSchema),
  spent_usd: z
    .number()
    .describe("The run's spend: the larger of loop-state.json's and metrics.json's (the loop counts the larger)."),
  pending_late_cost_usd: z
    .number()
    .describe(
      'Stage costs reported after the loop stopped waiting for their stage (spend-pending/), not yet added to spent_usd: the next run adds them.',
    ),
  issues: z
    .array(issueOutput)
    .readonly()
    .describe(
      'What the loop would refuse to run on (an invalid metrics.json, at its JSON path in the file), and a loop.lock that is not a lock record, cannot be read or is dated ahead of this clock.',
    ),
  lock: z
    .strictObject({
      owner: z.string(),
      pid: z.int().nullable(),
      host: z.string().nullable(),
      heartbeat_age_ms: z.number().nullable(),
      timeout_ms: z.number().nullable(),
      holder: z.enum(['alive', 'gone', 'unknown']),
    })
    .nullable()
    .describe(
      'The run lock (null: none). holder gone: the loop that held it crashed on this host, so run again to resume (the lock is taken over at once); alive: a loop runs it; unknown: only heartbeat_age_ms against timeout_ms tells.',
    ),
  awaiting_verdicts: z
    .strictObject({ criterion_ids: z.array(z.string()).readonly(), iteration: z.int() })
    .nullable()
    .describe(
      'When the loop stopped ask_user for judges: the criteria to answer with submit_verdict, and the iteration the verdicts are stamped for (null otherwise).',
    ),
  last_decision: z
    .strictObject({
      iteration: z.int().nullable(),
      status: z.union([goalStatusSchema, z.literal('ERROR')]),
      score: z.number(),
      reason: z.string(),
      recommended_rerun_stages: z.array(z.string()).readonly(),
      failing_criteria: z.array(z.string()).readonly(),
    })
    .nullable()
    .describe("The latest iteration's evaluation (iterations/<n>/evaluation.json)."),
});

// The fields of an evaluation file the last decision shows.
const evaluationView = z.looseObject({
  iteration: z.int().nullable(),
  status: z.union([goalStatusSchema, z.literal('ERROR')]),
  score: z.number(),
  reason: z.string(),
  recommendedRerunStages: z.array(z.string()),
  criteria: z.array(z.looseObject({ id: z.string(), status: z.string() })),
});

/** The input of the `loop_status` tool. @public */
export type LoopStatusInput = z.output<typeof loopStatusInputSchema>;

/** The output of the `loop_status` tool: the run's loop as persisted. @public */
export type LoopStatusOutput = z.output<typeof loopStatusOutputSchema>;

/** `loop_status`: a run's persisted loop (`readLoopStatus`), for a host that watches or resumes runs. @internal */
export function loopStatusTool(options: GoalLoopToolsOptions): Tool<LoopStatusInput, LoopStatusOutput> {
  return defineTool({
    name: 'loop_status',
    title: "Read a run's loop status",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    description:
      "Reads a run's goal loop as persisted: whether a session is in progress, paused or stopped (and why), the " +
      'run-wide iteration, stage statuses, spend, the run lock (a holder gone: crashed, run again to resume), and ' +
      'the last decision with its failing criteria. Writes nothing.',
    input: loopStatusInputSchema,
    output: loopStatusOutputSchema,
    run: async (call) => {
      const status = await readLoopStatus({ fs: options.fs, runDir: call.run_dir });
      // The evaluation file is read as it is; one that is not an evaluation (hand-edited, foreign) is named.
      const evaluation = status.lastEvaluation === null ? null : evaluationView.safeParse(status.lastEvaluation);
      if (evaluation !== null && !evaluation.success) {
        return toolError(
          'invalid_contract',
          `The evaluation.json of iteration ${status.iteration} (or the one before) in ${call.run_dir}/iterations is not an evaluation`,
        );
      }
      return statusOutput(call.run_dir, status, evaluation?.data ?? null);
    },
  });
}

// The status in the tool's snake_case shape, with one state word for the session.
function statusOutput(
  runDir: string,
  status: LoopStatus,
  evaluation: z.output<typeof evaluationView> | null,
): LoopStatusOutput {
  return {
    run_dir: runDir,
    state: !status.exists
      ? 'not_started'
      : status.phase === 'stopped'
        ? 'stopped'
        : status.paused === null
          ? 'in_progress'
          : 'paused',
    goal_id: status.goalId,
    iteration: status.iteration,
    phase: status.phase,
    session:
      status.session === null
        ? null
        : {
            index: status.session.index,
            started_at_iteration: status.session.startedAtIteration,
            max_iterations: status.session.maxIterations,
            iterations: status.session.iterations,
          },
    stop: status.stop === null ? null : { ...stopOf(status.stop), iteration: status.stop.iteration },
    paused: status.paused === null ? null : stopOf(status.paused),
    pending_stages: status.pendingStages,
    current_stage: status.currentStage,
    stage_status: { ...status.stageStatus },
    spent_usd: status.spentUsd,
    pending_late_cost_usd: status.pendingLateCostUsd,
    issues: status.issues,
    lock:
      status.lock === null
        ? null
        : {
            owner: status.lock.owner,
            pid: status.lock.pid,
            host: status.lock.host,
            heartbeat_age_ms: status.lock.heartbeatAgeMs,
            timeout_ms: status.lock.timeoutMs,
            holder: status.lock.holder,
          },
    awaiting_verdicts:
      status.awaitingVerdicts === null
        ? null
        : { criterion_ids: status.awaitingVerdicts.criterionIds, iteration: status.awaitingVerdicts.iteration },
    last_decision:
      evaluation === null
        ? null
        : {
            iteration: evaluation.iteration,
            status: evaluation.status,
            score: evaluation.score,
            reason: evaluation.reason,
            recommended_rerun_stages: evaluation.recommendedRerunStages,
            failing_criteria: evaluation.criteria
              .filter((criterion) => criterion.status !== 'PASS')
              .map((criterion) => criterion.id),
          },
  };
}

// A stop's two fields in snake_case.
function stopOf(value: NonNullable<LoopStatus['paused']>): z.output<typeof stop> {
  return { stopped_on: value.stoppedOn, reason: value.reason };
}
