// A folder of pending late costs: one file per cost, written without the lock by whatever process still watched the
// host call that reported it, and read (then removed) by the holder of the lock that counts it.
import type { z } from 'zod';
import { formatIssue, GoalLoopError, issuesFromZod, parseJsonText } from '../errors.js';
import type { PendingCost } from '../kit/late-cost-memory.js';
import { joinPath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { mapConcurrent } from './concurrency.js';
import { readContainedText } from './contained-read.js';
import { resolveContainedPath } from './containment.js';

// The folder's name inside a run or execution directory.
const PENDING_COST_FOLDER = 'spend-pending';

/**
 * The pending late costs folder of `dir` after the containment rule (its
 * symlinks resolved); an `IO_ERROR` naming it when it leads out of the
 * project, like every other file the library reads or writes.
 *
 * @internal
 */
export async function containPendingCostFolder(fs: FileSystem, dir: string): Promise<string> {
  const folder = joinPath(dir, PENDING_COST_FOLDER);
  const fact = await resolveContainedPath(fs, folder);
  if (fact.state === 'refused') throw new GoalLoopError('IO_ERROR', `The folder ${folder} is refused: ${fact.detail}.`);
  return fact.path;
}

/**
 * Writes one pending cost as a file of its own, atomically, under a name
 * that holds `unique` (so no lock is needed and no other writer can clash
 * with it), after checking it against `schema`; returns its path. `label`
 * starts the name: only its filename-safe characters are kept (the record
 * keeps the whole text).
 *
 * @internal
 */
export async function writePendingCost<R>(
  fs: FileSystem,
  folder: string,
  file: { readonly label: string; readonly unique: string },
  record: R,
  schema: z.ZodType<R>,
): Promise<string> {
  const label = file.label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);
  const path = joinPath(folder, `${label}-${file.unique}.json`);
  await fs.writeText(path, `${JSON.stringify(schema.parse(record), null, 2)}\n`);
  return path;
}

/**
 * The pending costs in the folder, in name order: each `.json` file with its
 * record, or, when it cannot be read as one (not JSON, a field wrong, not a
 * regular file, a symlink out of the project), the reason, naming it; never
 * a throw for one damaged file. Temp files of writes in flight (`.name.tmp`)
 * are not records. Reads only.
 *
 * @internal
 */
export async function readPendingCosts<R>(
  fs: FileSystem,
  folder: string,
  schema: z.ZodType<R>,
): Promise<PendingCost<R>[]> {
  const names = (await fs.list(folder)) ?? [];
  const files = names.filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  // A bounded number of reads at once: a folder of many files must not run out of descriptors (EMFILE), which would
  // make readable costs read as damaged.
  const read = await mapConcurrent(files, PENDING_READS, (name) => readOne(fs, name, joinPath(folder, name), schema));
  return read.filter((file) => file !== null);
}

// Pending files read at once.
const PENDING_READS = 16;

// One pending file, read and checked under the containment rule (null when it went away meanwhile: then it is pending
// no more). A file that resolves outside the project is never read: a symlink out counts no spend and quotes nothing.
async function readOne<R>(
  fs: FileSystem,
  name: string,
  path: string,
  schema: z.ZodType<R>,
): Promise<PendingCost<R> | null> {
  // Each cost is a file of its own, reached without a symlink (the folder is already resolved, so a path that resolves
  // elsewhere went through one): a link to another pending file would count it twice, a dangling one stay for ever.
  const resolved = await resolveContainedPath(fs, path).catch((error: unknown) => ({
    state: 'refused' as const,
    detail: error instanceof Error ? error.message : 'it cannot be resolved',
  }));
  if (resolved.state === 'refused') return { name, path, problem: `refused, not read: ${resolved.detail}` };
  // Missing once resolved: gone meanwhile (pending no more), unless a dangling symlink stands there.
  if (resolved.state === 'missing')
    return (await fs.stat(path).catch(() => null)) === null
      ? null
      : { name, path, problem: 'a symlink, not a pending cost file' };
  if (resolved.path !== path) return { name, path, problem: 'a symlink, not a pending cost file' };
  const text = await readContainedText(fs, path);
  if (text === null) return null;
  if (typeof text !== 'string') return { name, path, problem: text.error };
  const json = parseJsonText(text);
  if (!json.ok) return { name, path, problem: formatIssue(json.issue) };
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) return { name, path, problem: issuesFromZod(parsed.error).map(formatIssue).join('; ') };
  return { name, path, record: parsed.data };
}

/**
 * The last steps of a fold of pending costs, once the record that counts
 * them is committed: removes the counted files (after `fence`, so a holder
 * that lost its lock removes nothing the new holder still remembers), then
 * commits the record `forget` makes without them. `state` itself when
 * there is nothing to remove. The order is what keeps each cost counted
 * once across a crash: counted by a commit, removed after it, forgotten
 * last.
 *
 * @internal
 */
export async function removeCountedCosts<S, F extends { readonly path: string }>(
  deps: {
    readonly fs: FileSystem;
    readonly fence: () => Promise<void>;
    readonly commit: { commit(state: S): Promise<S> };
  },
  state: S,
  remove: readonly F[],
  forget: (state: S, removed: readonly F[]) => S,
): Promise<S> {
  if (remove.length === 0) return state;
  await deps.fence();
  for (const file of remove) await deps.fs.remove(file.path);
  const forgotten = forget(state, remove);
  return forgotten === state ? state : deps.commit.commit(forgotten);
}
