import { z } from 'zod';
import { type Issue, invalidOptionIssues, optionShapeOf, refuseOptions } from '../../errors.js';
import type { FixLoopOrchestrator } from '../fix-loop-orchestrator.js';
import type { AllowedCommands } from './allowed-commands.js';

/** What the fix-loop tools call: a {@link FixLoopOrchestrator}, or anything with its four methods. @public */
export type FixLoopToolsOrchestrator = Pick<FixLoopOrchestrator, 'start' | 'step' | 'runToCompletion' | 'get'>;

/** Options of {@link createFixLoopTools}. @public */
export interface FixLoopToolsOptions {
  /**
   * Default and maximum wall time of a `run_feedback_loop` call, in seconds (default none); set it below the client's
   * request timeout.
   */
  readonly maxWallSeconds?: number;
  /**
   * Where fixes come from: `'source'` (default), the candidate source, or `'caller'`, which passes `candidates` to
   * `step_feedback_loop`; then a step without one answers `needs_candidates` and `run_feedback_loop` is refused.
   */
  readonly candidates?: 'source' | 'caller';
  /**
   * The build and test commands `start_feedback_loop` accepts (default `'any'`): a list, or per-workspace lists. Set it
   * when serving a model: sessions run commands in a shell.
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

/** Refuses bad options when the tools are made: `INVALID_OPTIONS` with every issue's path. @internal */
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
