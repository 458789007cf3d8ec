import type { FileSystem } from '../../src/ports/file-system.js';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';

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
