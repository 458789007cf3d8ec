import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { type ConsistencyReviewResult, runConsistencyReview } from '../../src/review/run-review.js';

/** The run directory the review tests write and review. */
export const RUN = '.goal-loop/runs/r-1';
/** The instant the reviews are stamped with. */
export const NOW = '2025-01-31T12:00:00.000Z';

/** Writes a run's documents at their canonical paths (or a legacy one for the keys in `legacy`). */
export async function writeRun(
  fs: FileSystem,
  documents: Partial<Record<ContractKey, unknown>>,
  legacy: readonly ContractKey[] = [],
): Promise<void> {
  for (const slot of REVIEW_CONTRACT_SLOTS) {
    const document = documents[slot.key];
    if (document === undefined) continue;
    const path = legacy.includes(slot.key) ? slot.legacyPaths[0] : slot.canonicalPath;
    await fs.writeText(`${RUN}/${path}`, JSON.stringify(document));
  }
}

/** Every file a review of {@link RUN} writes, in the order it reports them. */
export const OUTPUTS = [
  `${RUN}/tasks/11-feedback-loop/builder.json`,
  `${RUN}/tasks/11-feedback-loop/validation.json`,
  `${RUN}/artifacts/feedback/consistency_report.json`,
  `${RUN}/artifacts/feedback/REMEDIATION_PLAN.md`,
  `${RUN}/artifacts/stages/11-feedback-loop/REMEDIATION_PLAN.md`,
  `${RUN}/artifacts/stages/11-feedback-loop/feedback.json`,
];

/** The example runs the package ships (examples/runs), one folder each. */
export const EXAMPLES = join(import.meta.dirname, '../../examples/runs');
// The instant the reviews of the example runs are stamped with.
const EXAMPLES_NOW = '2025-03-03T12:00:00.000Z';

/** Copies an example run into a temporary project (so the review's outputs stay out of the repo) and reviews it. */
export async function reviewExample(name: string, root: string): Promise<ConsistencyReviewResult> {
  await cp(join(EXAMPLES, name), join(root, 'runs', name), { recursive: true });
  return runConsistencyReview({ fs: createNodeFileSystem(root), runDir: `runs/${name}`, now: EXAMPLES_NOW });
}
