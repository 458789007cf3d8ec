import { z } from 'zod';

const count = z.number().int().nonnegative();

/**
 * What separates a workspace from its goal, measured from real command runs:
 * the build (failing, and how many errors it printed), the tests (failed,
 * passed, total), the requirements the environment lacks, and `gap`, one
 * number (build errors, at least 1 when the build fails, plus failed tests
 * plus missing requirements) so that trends across attempts compare. Build
 * it with `computeGap`.
 *
 * @public
 */
export const gapModelSchema = z.strictObject({
  build: z.strictObject({ failing: z.boolean(), error_count: count }),
  tests: z.strictObject({ failed: count, passed: count, total: count }),
  requirements: z.strictObject({ missing: z.array(z.string()) }),
  gap: count,
});

/** The measured gap between a workspace and its goal. @public */
export type GapModel = z.infer<typeof gapModelSchema>;

/** The parts a gap is computed from (everything but the total). @public */
export type GapParts = Omit<GapModel, 'gap'>;
