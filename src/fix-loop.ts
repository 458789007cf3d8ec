// goal-loop/fix-loop: the fix-loop orchestrator — a build/test fix session stepped to convergence or escalation.

// The shared types this entry's signatures use, so its declarations stand alone.
export type { GoalLoopErrorCode, Issue, ParseResult } from './errors.js';
export type { AttemptOutcome, FixAttempt } from './fix-loop/contracts/attempt.js';
export { attemptOutcomeSchema, fixAttemptSchema } from './fix-loop/contracts/attempt.js';
export type { AuditEntry, FixSessionStatus } from './fix-loop/contracts/audit.js';
export { auditEntrySchema, fixSessionStatusSchema } from './fix-loop/contracts/audit.js';
export type { FixCandidate, FixCandidateRecord, MutationType } from './fix-loop/contracts/candidate.js';
export { fixCandidateRecordSchema, fixCandidateSchema, mutationTypeSchema } from './fix-loop/contracts/candidate.js';
export type { EscalationReason, FixAction, IterationAction, PolicyDecision } from './fix-loop/contracts/decision.js';
export {
  escalationReasonSchema,
  fixActionSchema,
  iterationActionSchema,
  policyDecisionSchema,
} from './fix-loop/contracts/decision.js';
export type { AttemptSummary, EscalationReport } from './fix-loop/contracts/escalation.js';
export { attemptSummarySchema, escalationReportSchema } from './fix-loop/contracts/escalation.js';
export type { GapModel, GapParts } from './fix-loop/contracts/gap.js';
export { gapModelSchema } from './fix-loop/contracts/gap.js';
export type { FixSessionState, StepInProgress } from './fix-loop/contracts/session.js';
export { fixSessionStateSchema, MAX_FAILURE_OUTPUT_CHARS, stepInProgressSchema } from './fix-loop/contracts/session.js';
export type { FixSessionStart, FixSessionStartInput, TestReportFile } from './fix-loop/contracts/start.js';
export {
  DEFAULT_MAX_ATTEMPTS,
  fixSessionStartSchema,
  MAX_ATTEMPTS_CAP,
  testReportFileSchema,
} from './fix-loop/contracts/start.js';
export type { CandidateSelection } from './fix-loop/core/candidates.js';
export {
  candidateHash,
  keepManualCandidates,
  MAX_KEPT_MANUAL_CANDIDATES,
  selectCandidate,
} from './fix-loop/core/candidates.js';
export { parseFixCandidates } from './fix-loop/core/check-candidates.js';
export type { EscalationSource } from './fix-loop/core/escalation.js';
export { buildEscalationReport, MAX_REPORTED_CANDIDATES, NEXT_STEPS } from './fix-loop/core/escalation.js';
export { renderEscalationMarkdown } from './fix-loop/core/escalation-markdown.js';
export type { FixNeeded } from './fix-loop/core/fix-needed.js';
export { MAX_FAILING_TESTS } from './fix-loop/core/fix-needed.js';
export { computeGap } from './fix-loop/core/gap.js';
export { readJestJsonReport } from './fix-loop/core/jest-json.js';
export { readJUnitReport } from './fix-loop/core/junit.js';
export type { KeepPolicy } from './fix-loop/core/keep.js';
export type { PolicyFacts, PolicyInput, PolicyRow, PolicyRowId } from './fix-loop/core/policy.js';
export { decideNextAction, FIX_POLICY, policyFacts } from './fix-loop/core/policy.js';
export { createFixSessionState, failureOutputTail, parseFixSessionStart } from './fix-loop/core/start.js';
export type { TestFailure, TestReport } from './fix-loop/core/test-report.js';
export { MAX_FAILURE_MESSAGE_CHARS } from './fix-loop/core/test-report.js';
export type { EnvironmentProbeOptions } from './fix-loop/environment-probe.js';
export { createEnvironmentProbe } from './fix-loop/environment-probe.js';
export type { EscalationFiles } from './fix-loop/escalation-files.js';
export { FixLoopOrchestrator } from './fix-loop/fix-loop-orchestrator.js';
export type { GitPatchApplierOptions } from './fix-loop/git-patch-applier.js';
export { createGitPatchApplier } from './fix-loop/git-patch-applier.js';
export type {
  ApplyContext,
  ApplyResult,
  CandidateApplier,
  CandidateProposalInput,
  CandidateSource,
  EnvironmentProbe,
  ProbeInput,
  ProbeResult,
  RevertContext,
  RevertResult,
} from './fix-loop/host-ports.js';
export type { FixLoopOrchestratorOptions } from './fix-loop/options.js';
export type { FixLoopStartInput } from './fix-loop/start-input.js';
export type {
  FixLoopRunResult,
  FixLoopStarted,
  FixSessionView,
  FixStepOptions,
  FixStepResult,
  RunToCompletionOptions,
} from './fix-loop/step-result.js';
export type { AllowedCommands } from './fix-loop/tools/allowed-commands.js';
export type { FixLoopTools } from './fix-loop/tools/fix-loop-tools.js';
export { createFixLoopTools } from './fix-loop/tools/fix-loop-tools.js';
export type { GetFeedbackLoopInput, GetFeedbackLoopOutput } from './fix-loop/tools/get-tool.js';
export { getFeedbackLoopInputSchema, getFeedbackLoopOutputSchema } from './fix-loop/tools/get-tool.js';
export type { FixLoopToolsOptions, FixLoopToolsOrchestrator } from './fix-loop/tools/options.js';
export type { RunFeedbackLoopInput, RunFeedbackLoopOutput } from './fix-loop/tools/run-tool.js';
export { runFeedbackLoopInputSchema, runFeedbackLoopOutputSchema } from './fix-loop/tools/run-tool.js';
export type { StartFeedbackLoopInput, StartFeedbackLoopOutput } from './fix-loop/tools/start-tool.js';
export { startFeedbackLoopInputSchema, startFeedbackLoopOutputSchema } from './fix-loop/tools/start-tool.js';
export type { StepFeedbackLoopInput, StepFeedbackLoopOutput } from './fix-loop/tools/step-tool.js';
export { stepFeedbackLoopInputSchema, stepFeedbackLoopOutputSchema } from './fix-loop/tools/step-tool.js';
export type { Clock } from './ports/clock.js';
export type { CommandResult, CommandRunner, CommandRunOptions } from './ports/command-runner.js';
export type { FileGuard, FileStat, FileSystem } from './ports/file-system.js';
export type { ProcessProbe } from './ports/process-probe.js';
export type {
  Tool,
  ToolAnnotations,
  ToolCallContext,
  ToolError,
  ToolErrorCode,
  ToolIssue,
  ToolJsonSchema,
  ToolResult,
} from './ports/tool.js';
export type { SpanAttributes, SpanAttributeValue, SpanParentContext, Tracer, TraceSpan } from './ports/tracer.js';
export type { ListenerErrorHandler } from './runtime/event-feed.js';

/**
 * The version of the fix-loop session files this entry reads and writes
 * (`schema_version` of state.json).
 *
 * @public
 */
export const FIX_LOOP_STATE_VERSION = 1;
