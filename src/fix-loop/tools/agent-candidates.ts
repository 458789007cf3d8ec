import { z } from 'zod';
import { fixAttemptSchema } from '../contracts/attempt.js';
import { mutationTypeSchema } from '../contracts/candidate.js';
import { MAX_PATCH_CHARS } from '../core/git-apply-command.js';

// How many candidates one `step_feedback_loop` call takes at most.
const MAX_CALLER_CANDIDATES = 20;
// The longest description of a caller's candidate, in characters.
const MAX_DESCRIPTION_CHARS = 2_000;

/** The `candidates` field of `step_feedback_loop`: the caller's fixes for this step, in the tools' snake_case. @internal */
export const candidatesInput = z
  .array(
    z.strictObject({
      description: z
        .string()
        .min(1)
        .max(MAX_DESCRIPTION_CHARS)
        .describe('What the fix does, in one sentence; a fix is never applied twice in a session (by this text).'),
      confidence: z.number().min(0).max(1).describe('How sure you are, in [0, 1]; the highest untried one is applied.'),
      mutation_type: mutationTypeSchema.describe('auto: apply it; manual: a human must (the session escalates).'),
      patch: z
        .string()
        .max(MAX_PATCH_CHARS)
        .optional()
        .describe('A unified diff (git diff --relative in the workspace), against the workspace as it is now.'),
    }),
  )
  .min(1)
  .max(MAX_CALLER_CANDIDATES)
  .optional()
  .describe(
    `Fixes you propose for this step (at most ${MAX_CALLER_CANDIDATES}), used instead of the server's candidate source; ignored when the step needs no fix.`,
  );

/** The `needs_fix` field of a step result: what the caller needs to propose a fix. @internal */
export const needsFixOutput = z
  .strictObject({
    failing_tests: z.array(z.string()).readonly(),
    output_tail: z.string(),
    attempts: z.array(fixAttemptSchema).readonly(),
  })
  .describe(
    'Present when the next step applies a fix: the failing tests, the tail of the failing output, and every attempt so far (what was tried, how it ended).',
  );
