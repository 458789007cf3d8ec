import type { ToolAnnotations } from '../../ports/tool.js';

/** Where the fix-loop tools' fixes come from: the orchestrator's candidate source, or the agent calling them. @internal */
export type FixSource = 'source' | 'caller';

/** The sentence of each tool description that says where fixes come from. @internal */
export const FIX_SOURCE_SENTENCE: Readonly<Record<FixSource, string>> = {
  source:
    "Fixes come from the server's own candidate source; pass candidates to step_feedback_loop to propose your own for that step instead.",
  caller:
    'Fixes come from you, the caller: when a step needs one, step_feedback_loop answers needs_candidates with the failing tests and output, and you call it again with candidates (description, confidence, mutation_type, patch: a unified diff against the workspace as it is now).',
};

/** Reads a session and changes nothing. @internal */
export const READ_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Records a new session: adds, changes no file of the workspace; each call makes another. @internal */
export const START_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** Runs the build and tests and changes the workspace's files (applies and reverts fixes). @internal */
export const STEP_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};
