import { formatIssue, GoalLoopError, issuesFromZod, parseJsonText } from '../errors.js';
import { joinPath } from '../kit/paths.js';
import { sumUsd } from '../kit/usd.js';
import { readContainedText } from '../persist/contained-read.js';
import { resolveContainedPath } from '../persist/containment.js';
import type { FileSystem } from '../ports/file-system.js';
import { type LateCostRecord, lateCostRecordSchema, type PendingLateCost } from './contracts/late-cost.js';

// The folder of a run's pending late costs: one file per cost, written without the lock, folded in under it.

// The folder's name inside the run directory.
const LATE_COST_FOLDER = 'spend-pending';

/**
 * The run's pending late costs folder after the containment rule (its
 * symlinks resolved); an `IO_ERROR` naming it when it leads out of the
 * project, like every other file of the run.
 *
 * @internal
 */
export async function containLateCostFolder(fs: FileSystem, runDir: string): Promise<string> {
  const folder = joinPath(runDir, LATE_COST_FOLDER);
  const fact = await resolveContainedPath(fs, folder);
  if (fact.state === 'refused')
    throw new GoalLoopError('IO_ERROR', `The run folder ${folder} is refused: ${fact.detail}.`);
  return fact.path;
}

/**
 * Writes one late cost as a file of its own, atomically (a unique name, so
 * no lock is needed and no other writer can clash with it); returns its path.
 *
 * @internal
 */
export async function writeLateCost(
  fs: FileSystem,
  folder: string,
  record: LateCostRecord,
  unique: string,
): Promise<string> {
  // The stage id is free text: only filename-safe characters of it go into the name (the record keeps it whole).
  const stage = record.stage.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const path = joinPath(folder, `${record.iteration}-${stage}-${unique}.json`);
  await fs.writeText(path, `${JSON.stringify(lateCostRecordSchema.parse(record), null, 2)}\n`);
  return path;
}

/**
 * The pending late costs in the folder, in name order: each `.json` file
 * with its record, or, when it cannot be read as one (not JSON, a field
 * wrong, not a regular file), the reason, naming it; never a throw for one
 * damaged file. Temp files of writes in flight (`.name.tmp`) are not
 * records. Reads only.
 *
 * @internal
 */
export async function readLateCosts(fs: FileSystem, folder: string): Promise<PendingLateCost[]> {
  const names = (await fs.list(folder)) ?? [];
  const files = names.filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  const read = await Promise.all(files.map((name) => readOne(fs, name, joinPath(folder, name))));
  return read.filter((file) => file !== null);
}

// One pending file, read and checked under the containment rule (null when it went away meanwhile: then it is pending
// no more). A file that resolves outside the project is never read: a symlink out counts no spend and quotes nothing.
async function readOne(fs: FileSystem, name: string, path: string): Promise<PendingLateCost | null> {
  const text = await readContainedText(fs, path);
  if (text === null) return null;
  if (typeof text !== 'string') return { name, path, problem: text.error };
  const json = parseJsonText(text);
  if (!json.ok) return { name, path, problem: formatIssue(json.issue) };
  const parsed = lateCostRecordSchema.safeParse(json.value);
  if (!parsed.success) return { name, path, problem: issuesFromZod(parsed.error).map(formatIssue).join('; ') };
  return { name, path, record: parsed.data };
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
