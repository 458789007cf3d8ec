import { GoalLoopError, type Issue, isGoalLoopError } from '../../errors.js';
import { candidateFromRecord, candidateRecord, type MutationType } from '../contracts/candidate.js';
import type { TestReportFile } from '../contracts/start.js';
import { type FixNeeded, fixNeeded } from '../core/fix-needed.js';
import { decideNextAction } from '../core/policy.js';
import type { FixLoopStartInput } from '../start-input.js';
import type { FixLoopRunResult, FixSessionView, FixStepOptions, FixStepResult } from '../step-result.js';

// The tools speak the seed's snake_case (start_feedback_loop's `goal_type`, `session_id`, …) while the orchestrator's
// API is camelCase: this file maps between the two, and no other does. The records inside (gap, attempt, escalation
// report, audit entries) are the on-disk ones, already snake_case, and pass through as they are.

/** A `start_feedback_loop` input as the orchestrator's `start()` takes it. @internal */
export function startInput(call: {
  readonly goal: string;
  readonly goal_type: string;
  readonly workspace: string;
  readonly build_command?: string | undefined;
  readonly test_command?: string | undefined;
  readonly test_report?: TestReportFile | undefined;
  readonly max_attempts?: number | undefined;
}): FixLoopStartInput {
  return {
    goal: call.goal,
    goalType: call.goal_type,
    workspace: call.workspace,
    ...(call.build_command === undefined ? {} : { buildCommand: call.build_command }),
    ...(call.test_command === undefined ? {} : { testCommand: call.test_command }),
    ...(call.test_report === undefined ? {} : { testReport: call.test_report }),
    ...(call.max_attempts === undefined ? {} : { maxAttempts: call.max_attempts }),
  };
}

/** A step result in the `step_feedback_loop` output's names (the seed's `action_taken`, `session_status`). @internal */
export function stepOutput(step: FixStepResult) {
  return {
    session_id: step.sessionId,
    step_index: step.stepIndex,
    action_taken: step.action,
    session_status: step.status,
    rationale: step.rationale,
    description: step.description,
    gap: step.gap,
    ...(step.candidates === undefined ? {} : { candidates: step.candidates.map(candidateRecord) }),
    ...(step.attempt === undefined ? {} : { attempt: step.attempt }),
    ...(step.escalation === undefined ? {} : { escalation: step.escalation }),
    ...(step.escalationFiles === undefined ? {} : { escalation_files: step.escalationFiles }),
    ...(step.interrupted === undefined ? {} : { interrupted: step.interrupted }),
    ...(step.needsFix === undefined ? {} : { needs_fix: needsFix(step.needsFix) }),
  };
}

// What a caller needs to propose a fix, in the tools' names.
const needsFix = (needs: FixNeeded) => ({
  failing_tests: needs.failingTests,
  output_tail: needs.outputTail,
  attempts: needs.attempts,
});

/** The caller's `step_feedback_loop` candidates as `step()` takes them (`mutation_type` → `mutationType`). @internal */
export function stepCandidates(
  candidates:
    | readonly { description: string; confidence: number; mutation_type: MutationType; patch?: string }[]
    | undefined,
): FixStepOptions {
  if (candidates === undefined) return {};
  return {
    candidates: candidates.map(({ mutation_type, ...rest }) => candidateFromRecord({ ...rest, mutation_type })),
  };
}

/** The `needs_candidates` answer of a step that needs a fix the caller did not pass; null when none is needed. @internal */
export function waitingForCandidates(view: FixSessionView) {
  const needs = fixNeeded(view.state);
  if (needs === null) return null;
  const next = decideNextAction(view.state);
  return {
    session_id: view.sessionId,
    step_index: view.state.step_count,
    action_taken: next.action,
    session_status: view.status,
    rationale: next.rationale,
    description:
      'No step was taken and no attempt spent: the next step applies a fix, and fixes come from the caller. Call step_feedback_loop again with candidates.',
    gap: view.gap,
    needs_fix: needsFix(needs),
    needs_candidates: true as const,
  };
}

/** A run result in the `run_feedback_loop` output's names (the seed's `final_status`, `steps_taken`, …). @internal */
export function runOutput(result: FixLoopRunResult, includeAudit: boolean) {
  return {
    session_id: result.sessionId,
    final_status: result.status,
    steps_taken: result.stepsTaken,
    final_gap: result.gap,
    ...(includeAudit ? { audit_log: result.audit } : {}),
    ...(result.escalation === null ? {} : { escalation: result.escalation }),
    ...(result.escalationFiles === null ? {} : { escalation_files: result.escalationFiles }),
  };
}

/** A session view in the `get_feedback_loop` output's names. @internal */
export function getOutput(view: FixSessionView) {
  return {
    session_id: view.sessionId,
    status: view.status,
    goal: view.goal,
    goal_type: view.goalType,
    workspace: view.workspace,
    attempts_made: view.attemptsMade,
    max_attempts: view.maxAttempts,
    gap: view.gap,
    escalation: view.escalation,
    escalation_files: view.escalationFiles,
    audit_tail: view.auditTail,
  };
}

// `goalType` → `goal_type`.
const snake = (key: string): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Issues with their JSON paths in the tools' names (`$.maxAttempts` → `$.max_attempts`). @internal */
export function toolIssues(issues: readonly Issue[]): Issue[] {
  return issues.map((issue) => ({
    ...issue,
    path: issue.path.map((key) => (typeof key === 'string' ? snake(key) : key)),
  }));
}

/** Runs an orchestrator call so that a refusal names the tool's (snake_case) fields. @internal */
export async function inToolNames<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isGoalLoopError(error) || error.issues.length === 0) throw error;
    const message = error.message.replace(/\$((?:\.[A-Za-z_$][\w$]*|\[\d+\])+)/g, (path: string) => snake(path));
    throw new GoalLoopError(error.code, message, { issues: toolIssues(error.issues), cause: error });
  }
}
