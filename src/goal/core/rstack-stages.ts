import type { Issue } from '../../errors.js';
import { readOwn } from '../../kit/dot-path.js';
import { shownValue } from '../../kit/shown-value.js';
import { mapAgentToStage } from '../../pipeline/stage-mapping.js';
import type { StageStatus } from './facts.js';

/** The parsed run files of an rstack-agents run directory that say how its stages stand (each `null` when absent or unreadable). @public */
export interface RstackRunFiles {
  /** metrics.json: `stage_status` maps a stage id to `PASS`, `FAILED`, `RUNNING`, … */
  readonly metrics: unknown;
  /** tasks.json: an array, or `{ tasks: [...] }`, of `{ id, status, stage_id?, stage_artifacts?, pipeline_agents? }`. */
  readonly tasks: unknown;
  /** approvals.json: an array, or `{ approvals: [...] }`, of `{ status, stage_id? | stage? | artifact? }`. */
  readonly approvals: unknown;
  /** decisions.json: an array, or `{ decisions: [...] }`, of `{ status, required_before_stage? }`. */
  readonly decisions: unknown;
}

const PASSED = new Set(['PASS', 'PASSED', 'SUCCESS', 'SUCCEEDED', 'DONE', 'COMPLETED']);
const FAILED = new Set(['FAIL', 'FAILED', 'ERROR']);
const AWAITING_APPROVAL = new Set(['PENDING', 'REQUIRED', 'REQUESTED', 'BLOCKED', 'NEEDS_APPROVAL']);
// rstack-agents' default for a decision that names no stage.
const DECISION_STAGE = '06-architecture';

/**
 * The status of each of `stages` that an rstack-agents run directory says something about, read as rstack-agents reads
 * it: a task of the stage that `NEEDS_CONTEXT` or a pending decision required before it is `needs_context`. @public
 */
export function stageStatusesFromRstack(files: RstackRunFiles, stages: readonly string[]): Record<string, StageStatus> {
  const taskStatuses = new Map<string, string[]>();
  const tasks = listOf(files.tasks, 'tasks');
  for (const task of tasks) {
    for (const stage of taskStages(task, stages)) {
      const list = taskStatuses.get(stage) ?? [];
      list.push(upper(task.status));
      taskStatuses.set(stage, list);
    }
  }
  const approvals = new Set(
    listOf(files.approvals, 'approvals').flatMap((item) =>
      AWAITING_APPROVAL.has(upper(item.status)) ? approvalStages(item, tasks, stages) : [],
    ),
  );
  const decisions = new Set(
    listOf(files.decisions, 'decisions').flatMap((item) =>
      (text(item.status) ?? 'pending') === 'pending' ? [text(item.required_before_stage) ?? DECISION_STAGE] : [],
    ),
  );
  const metrics = record(record(files.metrics)?.stage_status);
  const statuses: Record<string, StageStatus> = {};
  for (const stage of stages) {
    const tasks = taskStatuses.get(stage) ?? [];
    const status =
      tasks.includes('NEEDS_CONTEXT') || decisions.has(stage)
        ? 'needs_context'
        : approvals.has(stage)
          ? 'awaiting_approval'
          : tasks.includes('BLOCKED')
            ? 'blocked'
            : (fromMetric(metrics === null ? undefined : readOwn(metrics, stage)) ?? fromTasks(tasks));
    if (status !== null) statuses[stage] = status;
  }
  return statuses;
}

// Statuses rstack-agents writes for a stage that has not passed yet (read as pending, like any other known one).
const NOT_YET = new Set([
  'PENDING',
  'RUNNING',
  'IN_PROGRESS',
  'NOT_STARTED',
  'QUEUED',
  'WAITING',
  'STARTED',
  'SKIPPED',
]);

/**
 * The issues of metrics.json's `stage_status` for `stages` (the ones read from it): `stage_status` that is not an
 * object, and each entry that is not a string (ignored: the stage's tasks give its status, else it counts as not run)
 * or a string that is no stage status (`"WAT"`: it counts as not run). @internal
 */
export function metricsStageIssues(metrics: unknown, stages: readonly string[]): Issue[] {
  const raw = record(metrics)?.stage_status;
  if (raw === undefined || stages.length === 0) return [];
  const statuses = record(raw);
  if (statuses === null)
    return [
      {
        code: 'invalid_type',
        path: ['stage_status'],
        message: `metrics.json: stage_status must be an object of stage ids to statuses (got ${shownValue(raw)}); it is ignored`,
      },
    ];
  return stages.flatMap((stage): Issue[] => {
    const value = readOwn(statuses, stage);
    if (value === undefined) return [];
    if (typeof value !== 'string')
      return [
        {
          code: 'invalid_type',
          path: ['stage_status', stage],
          message: `metrics.json: stage_status.${stage} must be a status such as "PASS" or "FAILED" (got ${shownValue(value)}); it is ignored: the stage's tasks in tasks.json decide, else it counts as not run`,
        },
      ];
    const status = upper(value);
    if (status === '' || status === 'BLOCKED' || status === 'NEEDS_CONTEXT') return [];
    if (PASSED.has(status) || FAILED.has(status) || NOT_YET.has(status)) return [];
    return [
      {
        code: 'invalid_value',
        path: ['stage_status', stage],
        message: `metrics.json: stage_status.${stage} is ${JSON.stringify(value)}, not a stage status; the stage's status is unknown, so it counts as not run`,
      },
    ];
  });
}

// A stage status written in metrics.json, or null when there is none.
function fromMetric(value: unknown): StageStatus | null {
  const status = upper(value);
  if (status === '') return null;
  if (PASSED.has(status)) return 'passed';
  if (FAILED.has(status)) return 'failed';
  if (status === 'BLOCKED') return 'blocked';
  if (status === 'NEEDS_CONTEXT') return 'needs_context';
  return 'pending';
}

// The status a stage's tasks give it, or null without tasks.
function fromTasks(tasks: readonly string[]): StageStatus | null {
  if (tasks.length === 0) return null;
  if (tasks.some((status) => FAILED.has(status))) return 'failed';
  return tasks.every((status) => PASSED.has(status)) ? 'passed' : 'pending';
}

// The artifact prefixes of rstack-agents' approvals ledger that name a task (the rest of the name is its id).
const TASK_GATES = ['guardrail-override:', 'destructive-action:', 'no-tests:'];

// The stages an approval holds: its stage_id or stage, else its artifact (`stage-approval:<stage>`, a stage id, or a
// gate on a task, which holds the task's stages).
function approvalStages(
  approval: Record<string, unknown>,
  tasks: readonly Record<string, unknown>[],
  stages: readonly string[],
): string[] {
  const own = text(approval.stage_id) ?? text(approval.stage);
  if (own !== null) return [own];
  const artifact = text(approval.artifact) ?? '';
  const stage = artifact.startsWith('stage-approval:') ? artifact.slice('stage-approval:'.length) : artifact;
  if (stages.includes(stage)) return [stage];
  const gate = TASK_GATES.find((prefix) => artifact.startsWith(prefix));
  if (gate === undefined) return [];
  const task = tasks.find((item) => text(item.id) === artifact.slice(gate.length));
  return task === undefined ? [] : [...taskStages(task, stages)];
}

// The stages a task belongs to, as rstack-agents derives them (stage_id, stage_artifacts, pipeline_agents).
function taskStages(task: Record<string, unknown>, stages: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const artifact of Array.isArray(task.stage_artifacts) ? task.stage_artifacts : []) {
    const id = text(record(artifact)?.stage_id);
    if (id !== null) ids.add(id);
  }
  for (const agent of Array.isArray(task.pipeline_agents) ? task.pipeline_agents : []) {
    const id = mapAgentToStage(text(agent), stages);
    if (id !== null) ids.add(id);
  }
  const own = text(task.stage_id);
  if (own !== null) ids.add(own);
  return ids;
}

// The object items of a list file: an array, or the array under `key`.
function listOf(raw: unknown, key: string): Record<string, unknown>[] {
  const list = Array.isArray(raw) ? raw : record(raw)?.[key];
  return Array.isArray(list) ? list.flatMap((item) => (record(item) === null ? [] : [item])) : [];
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function upper(value: unknown): string {
  return typeof value === 'string' ? value.trim().toUpperCase() : '';
}
