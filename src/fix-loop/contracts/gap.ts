import { z } from 'zod';

const count = z.number().int().nonnegative();

/** What separates a workspace from its goal; `gap` is build errors + failed tests + missing requirements. @public */
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
