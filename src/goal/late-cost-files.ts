import { sumUsd } from '../kit/usd.js';
import type { FileSystem } from '../ports/file-system.js';
import { containPendingCostFolder, readPendingCosts, writePendingCost } from '../runtime/pending-costs.js';
import { type LateCostRecord, lateCostRecordSchema, type PendingLateCost } from './contracts/late-cost.js';

// The run's pending late costs folder (`<runDir>/spend-pending/`): one file per cost, written without the lock, folded
// in under it.

/**
 * The run's pending late costs folder after the containment rule (its
 * symlinks resolved); an `IO_ERROR` naming it when it leads out of the
 * project, like every other file of the run.
 *
 * @internal
 */
export function containLateCostFolder(fs: FileSystem, runDir: string): Promise<string> {
  return containPendingCostFolder(fs, runDir);
}

/**
 * Writes one late cost as a file of its own, atomically (a unique name, so
 * no lock is needed and no other writer can clash with it); returns its path.
 *
 * @internal
 */
export function writeLateCost(fs: FileSystem, folder: string, record: LateCostRecord, unique: string): Promise<string> {
  // The stage id is free text: its first 64 characters start the name (writePendingCost keeps the filename-safe ones).
  const label = `${record.iteration}-${record.stage.slice(0, 64)}`;
  return writePendingCost(fs, folder, { label, unique }, record, lateCostRecordSchema);
}

/**
 * The pending late costs in the folder, in name order, each with its record
 * or the reason it cannot be counted (see readPendingCosts). Reads only.
 *
 * @internal
 */
export function readLateCosts(fs: FileSystem, folder: string): Promise<PendingLateCost[]> {
  return readPendingCosts(fs, folder, lateCostRecordSchema);
}

/**
 * The sum of the pending late costs the record has not counted yet (names
 * outside `folded`), for status readers. Reads only.
 *
 * @internal
 */
export async function pendingLateCostUsd(
  fs: FileSystem,
  runDir: string,
  folded: readonly string[] = [],
): Promise<number> {
  const counted = new Set(folded);
  const pending = await readLateCosts(fs, await containLateCostFolder(fs, runDir));
  return sumUsd(pending.map((file) => ('record' in file && !counted.has(file.name) ? file.record.cost_usd : 0)));
}
