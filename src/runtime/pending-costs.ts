// Late costs, one file each, written without the lock by whoever watched the call; the lock holder folds them in.
import type { z } from 'zod';
import { formatIssue, GoalLoopError, issuesFromZod, parseJsonText } from '../errors.js';
import type { PendingCost } from '../kit/late-cost-memory.js';
import { joinPath } from '../kit/paths.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { mapConcurrent } from './concurrency.js';
import { readContainedText } from './contained-read.js';
import { resolveContainedPath } from './containment.js';
import { describeThrown } from './host-call.js';

// The folder's name inside a run or execution directory.
const PENDING_COST_FOLDER = 'spend-pending';

/** The folder after containment; `IO_ERROR` when it leads out of the project. @internal */
export async function containPendingCostFolder(fs: FileSystem, dir: string): Promise<string> {
  const folder = joinPath(dir, PENDING_COST_FOLDER);
  const fact = await resolveContainedPath(fs, folder);
  if (fact.state === 'refused') throw new GoalLoopError('IO_ERROR', `The folder ${folder} is refused: ${fact.detail}.`);
  return fact.path;
}

/** Atomic, schema-checked, under a unique name so no lock is needed. @internal */
async function writePendingCost<R>(
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

/** Each `.json` file's record in name order, or why it is damaged; one bad file never throws. @internal */
export async function readPendingCosts<R>(
  fs: FileSystem,
  folder: string,
  schema: z.ZodType<R>,
): Promise<PendingCost<R>[]> {
  const names = (await fs.list(folder)) ?? [];
  const files = names.filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  // Bounded concurrency: EMFILE would make readable costs read as damaged.
  const read = await mapConcurrent(files, PENDING_READS, (name) => readOne(fs, name, joinPath(folder, name), schema));
  return read.filter((file) => file !== null);
}

// Pending files read at once.
const PENDING_READS = 16;

// null when the file went away meanwhile (pending no more).
async function readOne<R>(
  fs: FileSystem,
  name: string,
  path: string,
  schema: z.ZodType<R>,
): Promise<PendingCost<R> | null> {
  // Reached without a symlink: a link to another pending file would count it twice, a dangling one stay for ever.
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

/** What a fold of pending costs commits and removes through. @internal */
export interface PendingCostDeps<S> {
  readonly fs: FileSystem;
  readonly clock: Clock;
  readonly fence: () => Promise<void>;
  readonly commit: { commit(state: S): Promise<S> };
}

/** A capability's part of a fold: its pure decision, what follows the counting commit, and how removals are forgotten. @internal */
export interface PendingCostFold<S, R> {
  readonly folder: string;
  readonly schema: z.ZodType<R>;
  readonly decide: (pending: PendingCost<R>[], ts: string) => Promise<{ state: S; remove: readonly PendingCost<R>[] }>;
  readonly counted?: (state: S, before: S) => Promise<void>;
  readonly forget: (state: S, removed: readonly PendingCost<R>[], ts: string) => S;
}

/** Under the lock: commit the count, remove the files (fenced), commit the record that forgets them. @internal */
export async function foldPendingCosts<S extends { readonly late_costs?: unknown }, R>(
  deps: PendingCostDeps<S>,
  state: S,
  fold: PendingCostFold<S, R>,
): Promise<S> {
  const pending = await readPendingCosts(deps.fs, fold.folder, fold.schema);
  if (pending.length === 0 && state.late_costs === undefined) return state;
  const ts = new Date(deps.clock.now()).toISOString();
  const decided = await fold.decide(pending, ts);
  let current = state;
  if (decided.state !== state) {
    current = await deps.commit.commit(decided.state);
    await fold.counted?.(current, state);
  }
  if (decided.remove.length === 0) return current;
  await deps.fence();
  for (const file of decided.remove) await deps.fs.remove(file.path);
  const forgotten = fold.forget(current, decided.remove, ts);
  return forgotten === current ? current : deps.commit.commit(forgotten);
}

/** For a call whose caller stopped waiting or lost the lock: a unique file, no lock needed. @internal */
export async function recordPendingCost<R extends { readonly cost_usd: number }>(
  target: { readonly fs: FileSystem; readonly folder: () => Promise<string> },
  label: string,
  record: R,
  schema: z.ZodType<R>,
  lost: (why: string) => string,
): Promise<void> {
  if (!(record.cost_usd > 0)) return;
  try {
    const file = { label, unique: globalThis.crypto.randomUUID() };
    await writePendingCost(target.fs, await target.folder(), file, record, schema);
  } catch (error) {
    console.warn(`goal-loop: ${lost(describeThrown(error))}`);
  }
}
