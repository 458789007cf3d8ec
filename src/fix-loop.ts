// goal-loop/fix-loop: the fix-loop orchestrator — a build/test fix session stepped to convergence or escalation.
// Its session files, policy table and tool contracts (schemas and types) are in goal-loop/contracts.

export { renderEscalationMarkdown } from './fix-loop/core/escalation-markdown.js';
export type { EnvironmentProbeOptions } from './fix-loop/environment-probe.js';
export { createEnvironmentProbe } from './fix-loop/environment-probe.js';
export type { EscalationFiles } from './fix-loop/escalation-files.js';
export { FixLoopOrchestrator } from './fix-loop/fix-loop-orchestrator.js';
export type { GitPatchApplierOptions } from './fix-loop/git-patch-applier.js';
export { createGitPatchApplier } from './fix-loop/git-patch-applier.js';
export type {
  ApplyResult,
  CandidateApplier,
  CandidateProposalInput,
  CandidateSource,
  EnvironmentProbe,
  ProbeResult,
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
export type { FixLoopToolsOptions } from './fix-loop/tools/options.js';
