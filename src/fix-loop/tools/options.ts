import { z } from 'zod';
import { type Issue, invalidOptionIssues, optionShapeOf, refuseOptions } from '../../errors.js';
import type { FixLoopOrchestrator } from '../fix-loop-orchestrator.js';
import type { AllowedCommands } from './allowed-commands.js';

/**
 * What the fix-loop tools call: a {@link FixLoopOrchestrator}, or anything with its four methods.
 *
 * @public
 */
export type FixLoopToolsOrchestrator = Pick<FixLoopOrchestrator, 'start' | 'step' | 'runToCompletion' | 'get'>;

/**
 * Options of {@link createFixLoopTools}.
 *
 * @public
 */
export interface FixLoopToolsOptions {
  /**
   * The wall time of a `run_feedback_loop` call that names none, and the most one may ask for, in seconds (default:
   * none — the session's attempt bound alone ends the run). A host whose client times requests out sets it below
   * that timeout.
   */
  readonly maxWallSeconds?: number;
  /**
   * Where fixes come from: `'source'` (the default), the orchestrator's candidate source, or `'caller'`, the agent
   * calling the tools, which passes `candidates` to `step_feedback_loop`. With `'caller'`, a step that needs a fix
   * and got none answers `needs_candidates` with the failure, spending no attempt, and `run_feedback_loop` is
   * refused (it could only step without fixes).
   */
  readonly candidates?: 'source' | 'caller';
  /**
   * The build and test commands `start_feedback_loop` accepts (default `'any'`): a list, or a map from workspace to
   * its list; any other command is an `invalid_input` tool error naming what is allowed. A host serving a model sets
   * it, since a session runs its commands in a shell.
   */
  readonly allowedCommands?: AllowedCommands;
}

/** The `session_id` field of the fix-loop tools: the id `start_feedback_loop` returned. @internal */
export const sessionIdInput = z.string().min(1).max(128).describe('The fix session id start_feedback_loop returned.');

// Every option has an entry (checked against FixLoopToolsOptions), so a key outside it is a misspelling.
const optionShape = optionShapeOf<FixLoopToolsOptions>()({
  maxWallSeconds: z
    .number()
    .refine((seconds) => Number.isFinite(seconds) && seconds > 0, { message: 'must be a positive number' })
    .optional(),
  candidates: z.enum(['source', 'caller']).optional(),
  allowedCommands: z
    .union([z.literal('any'), z.array(z.string().min(1)), z.record(z.string(), z.array(z.string().min(1)))])
    .optional(),
});

// The methods of an orchestrator the tools call.
const ORCHESTRATOR_METHODS = ['start', 'step', 'runToCompletion', 'get'] as const;

// The issue of an orchestrator that lacks one of the methods the tools call (none when it has them all).
function orchestratorIssues(orchestrator: unknown): Issue[] {
  const candidate = orchestrator as Partial<Record<string, unknown>> | null;
  const missing =
    typeof candidate === 'object' && candidate !== null
      ? ORCHESTRATOR_METHODS.filter((method) => typeof candidate[method] !== 'function')
      : [...ORCHESTRATOR_METHODS];
  if (missing.length === 0) return [];
  const message = `orchestrator must be a FixLoopOrchestrator (or implement ${ORCHESTRATOR_METHODS.join(', ')}); it lacks ${missing.join(', ')}`;
  return [{ code: 'invalid_type', path: ['orchestrator'], message }];
}

/**
 * Refuses an orchestrator or options the fix-loop tools cannot work with, when the tools are made rather than on
 * their first call: `INVALID_OPTIONS` listing every issue with its path (`orchestrator` when it lacks a method the
 * tools call, an unknown key with the known key it most likely misspells). @internal
 */
export function validateFixLoopToolsOptions(orchestrator: unknown, options: FixLoopToolsOptions): void {
  refuseOptions('createFixLoopTools', [
    ...orchestratorIssues(orchestrator),
    ...invalidOptionIssues(optionShape, options),
  ]);
}

/** The `escalation_files` field of the fix-loop tools' outputs: where an escalated session's report lies. @internal */
export const escalationFilesOutput = z
  .strictObject({ json: z.string(), markdown: z.string() })
  .describe(
    'Where the escalation report was written, relative to the project root: escalation.json and escalation.md.',
  );
