import { z } from 'zod';

/** Why a loop stopped, as results, events and loop-state.json record it. @public */
export const stopReasonSchema = z.enum([
  'complete',
  'ask_user',
  'blocked',
  'max_iterations',
  'no_progress',
  'budget_exhausted',
  'evaluation_error',
  'aborted',
  'dry_run',
]);

/** Why a loop stopped (see {@link stopReasonSchema}). @public */
export type StopReason = z.output<typeof stopReasonSchema>;

/** Every stop reason, in a fixed order (for validation and exhaustive tests). @public */
export const STOP_REASONS: readonly StopReason[] = Object.freeze([...stopReasonSchema.options]);
