import { GoalLoopError, type Issue, isGoalLoopError, parseJsonText } from '../errors.js';
import { type Goal, parseGoal, readLatestIterationStarted } from '../index.js';
import { joinPath } from '../kit/paths.js';
import { limitFunction } from '../persist/concurrency.js';
import { type RealpathCache, resolveContainedPath } from '../persist/containment.js';
import { runPaths } from '../pipeline/run-paths.js';
import type { FileSystem } from '../ports/file-system.js';
import type { ContractInput, ReviewContracts } from './core/contract-input.js';
import { type ContractSlot, REVIEW_CONTRACT_SLOTS } from './core/contract-slots.js';
import type { FileCheck } from './core/goal-evaluation.js';
import { assembleReviewModel, type ReviewModel, readContractSlot } from './core/model.js';
import { validateReadRunOptions } from './review-options.js';

/** The default bound on concurrent contract reads. @public */
export const DEFAULT_READ_CONCURRENCY = 8;

/** Options of {@link readRunInputs}. @public */
export interface ReadRunOptions {
  /** Use this goal instead of reading goal.json (`null`: no goal). */
  readonly goal?: Goal | null;
  /**
   * Stamp this iteration (`null`: outside a loop). It never goes ahead of the
   * run: events.jsonl is still read, and once a loop has started an
   * iteration the stamp is the smaller of this and the latest one.
   */
  readonly iteration?: number | null;
  /** Stage ids goal.json's `rerun_stages` must belong to (default: not checked, so a custom pipeline's goal reads as it is). */
  readonly stages?: readonly string[];
  /** At most this many files are read at once (default 8). */
  readonly concurrency?: number;
}

/**
 * Everything the review gathers from a run directory before deciding: the
 * contract inputs, the goal (or its issues), the manifest, the iteration to
 * stamp and, by criterion id, what is at each `file_exists` criterion's path.
 *
 * @public
 */
export interface RunInputs {
  readonly contracts: ReviewContracts;
  readonly goal: Goal | null;
  readonly goalIssues: readonly Issue[];
  readonly manifest: unknown;
  readonly iteration: number | null;
  readonly fileChecks: ReadonlyMap<string, FileCheck>;
}

// The message of a read that failed (a directory where a file belongs, a path the OS refuses, a permission).
function failureOf(error: unknown): string {
  return isGoalLoopError(error) || error instanceof Error ? error.message : String(error);
}

// What reading one run file gave: its text, null when missing, or why it was not read (refused or unreadable).
type ReadOutcome = string | null | { readonly error: string; readonly refused?: true };

// Reads one run file under the containment rule: a path that resolves outside the project is refused and never
// read; anything but a regular file (a directory, a FIFO, a device) is not opened; a failed read is `{ error }`.
async function readOrFailure(fs: FileSystem, path: string, cache: RealpathCache): Promise<ReadOutcome> {
  try {
    const fact = await resolveContainedPath(fs, path, { cache });
    if (fact.state === 'refused') return { error: `refused, not read: ${fact.detail}`, refused: true };
    if (fact.state === 'missing') return null;
    if (fact.type !== 'file')
      return {
        error: `"${path}" is ${fact.type === 'directory' ? 'a directory' : 'a special file (a FIFO, socket or device)'}, not a regular file`,
      };
    return await fs.readText(fact.path);
  } catch (error) {
    return { error: failureOf(error) };
  }
}

// Reads one contract slot: the canonical path first, then each legacy path; null text means missing, an unreadable file is malformed.
async function readSlot(
  fs: FileSystem,
  runDir: string,
  slot: ContractSlot,
  cache: RealpathCache,
): Promise<ContractInput> {
  const candidates = [slot.canonicalPath, ...slot.legacyPaths];
  for (const [index, path] of candidates.entries()) {
    const text = await readOrFailure(fs, joinPath(runDir, path), cache);
    if (text === null) continue;
    const legacy = index > 0;
    if (typeof text !== 'string')
      return {
        state: 'invalid_json',
        path,
        issues: [
          text.refused === true
            ? { code: 'refused', path: [], message: text.error }
            : { code: 'unreadable', path: [], message: `cannot be read: ${text.error}` },
        ],
        legacy,
      };
    const parsed = parseJsonText(text);
    return parsed.ok
      ? { state: 'present', path, document: parsed.value, legacy }
      : { state: 'invalid_json', path, issues: [parsed.issue], legacy };
  }
  return { state: 'missing' };
}

// Reads goal.json as the loop does (parseGoal): absent → no goal (not the loop's default goal); present → parsed strictly, or its issues (unreadable or not JSON is one).
async function readGoal(
  fs: FileSystem,
  path: string,
  stages: readonly string[] | undefined,
  cache: RealpathCache,
): Promise<{ goal: Goal | null; issues: readonly Issue[] }> {
  const text = await readOrFailure(fs, path, cache);
  if (text !== null && typeof text !== 'string')
    return {
      goal: null,
      issues: [
        text.refused === true
          ? { code: 'refused', path: [], message: `goal.json ${text.error}` }
          : { code: 'unreadable', path: [], message: `goal.json cannot be read: ${text.error}` },
      ],
    };
  if (text === null) return { goal: null, issues: [] };
  const json = parseJsonText(text);
  if (!json.ok) return { goal: null, issues: [json.issue] };
  const parsed = parseGoal(json.value, stages === undefined ? {} : { stages });
  return parsed.success ? { goal: parsed.data, issues: [] } : { goal: null, issues: parsed.issues };
}

// Reads manifest.json tolerantly: a missing, refused, unreadable or unparsable manifest is no manifest.
async function readManifest(fs: FileSystem, path: string, cache: RealpathCache): Promise<unknown> {
  const text = await readOrFailure(fs, path, cache);
  if (typeof text !== 'string') return undefined;
  const parsed = parseJsonText(text);
  return parsed.ok ? parsed.value : undefined;
}

// Checks each file_exists criterion's path against its own base (run dir or root), keyed by criterion id; a check that fails records why.
async function checkFileCriteria(fs: FileSystem, runDir: string, goal: Goal | null): Promise<Map<string, FileCheck>> {
  const checks = new Map<string, FileCheck>();
  for (const criterion of goal?.criteria ?? []) {
    if (criterion.kind !== 'file_exists') continue;
    try {
      const fact = await resolveContainedPath(fs, criterion.path, { base: criterion.run_relative ? runDir : 'root' });
      checks.set(criterion.id, { exists: fact.state === 'present' });
    } catch (error) {
      checks.set(criterion.id, { exists: false, error: failureOf(error) });
    }
  }
  return checks;
}

// The iteration to stamp: the latest loop_iteration_started, never passed by a caller's override (used as is only before any loop iteration).
async function stampedIteration(
  fs: FileSystem,
  eventsPath: string,
  override: number | null | undefined,
): Promise<number | null> {
  if (override === null) return null;
  const fact = await resolveContainedPath(fs, eventsPath);
  if (fact.state === 'refused')
    throw new GoalLoopError('IO_ERROR', `the review will not read "${eventsPath}": ${fact.detail}`);
  const latest = await readLatestIterationStarted(fs, eventsPath);
  if (override === undefined || latest === null) return override ?? latest;
  return Math.min(override, latest);
}

// Everything gathered from a run, with each contract slot as `convert` made it the moment it was read.
interface Gathered<T> extends Omit<RunInputs, 'contracts'> {
  readonly slots: readonly T[];
}

// Gathers a run: the contract slots (bounded concurrency, each converted as soon as it is read), goal, manifest, iteration and evidence.
async function gatherRun<T>(
  fs: FileSystem,
  runDir: string,
  options: ReadRunOptions,
  convert: (slot: ContractSlot, input: ContractInput) => T,
): Promise<Gathered<T>> {
  const paths = runPaths(runDir);
  const cache: RealpathCache = new Map();
  const read = limitFunction(async (slot: ContractSlot) => convert(slot, await readSlot(fs, runDir, slot, cache)), {
    concurrency: Math.max(1, options.concurrency ?? DEFAULT_READ_CONCURRENCY),
  });
  const [slots, goalRead, manifest, iteration] = await Promise.all([
    Promise.all(REVIEW_CONTRACT_SLOTS.map((slot) => read(slot))),
    options.goal !== undefined
      ? Promise.resolve({ goal: options.goal, issues: [] })
      : readGoal(fs, paths.goal, options.stages, cache),
    readManifest(fs, joinPath(runDir, 'manifest.json'), cache),
    stampedIteration(fs, paths.events, options.iteration),
  ]);
  const fileChecks = await checkFileCriteria(fs, runDir, goalRead.goal);
  return { slots, goal: goalRead.goal, goalIssues: goalRead.issues, manifest, iteration, fileChecks };
}

/**
 * Gathers the review's inputs from a run directory through the FileSystem
 * port: every stage contract (canonical path first, legacy paths as
 * fallback; reads bounded by `concurrency`), goal.json, manifest.json, the
 * latest `loop_iteration_started` (read from the end of events.jsonl; an
 * `iteration` option never stamps past it) and the check of each
 * `file_exists` criterion's path. Every file goes through the containment
 * rule first: a contract whose path resolves outside the project (a symlink
 * out, say) is malformed with the refusal (code `refused`) and never read,
 * as is one that is not a regular file (a directory, a FIFO). Never throws
 * on input: an unreadable contract is malformed with the error, an
 * unreadable or refused goal.json a goal issue, a refused manifest.json no
 * manifest, a path that cannot be checked an `error` in its check. A fault
 * reading events.jsonl, or an events.jsonl that resolves outside the
 * project, propagates; an unknown option key or a wrong value is
 * `INVALID_OPTIONS` naming its path.
 *
 * @public
 */
export async function readRunInputs(fs: FileSystem, runDir: string, options: ReadRunOptions = {}): Promise<RunInputs> {
  validateReadRunOptions(options);
  const { slots, ...rest } = await gatherRun(fs, runDir, options, (_slot, input) => input);
  const contracts: Record<string, ContractInput> = {};
  REVIEW_CONTRACT_SLOTS.forEach((slot, index) => {
    const input = slots[index];
    if (input !== undefined) contracts[slot.key] = input;
  });
  return { contracts: contracts as ReviewContracts, ...rest };
}

/**
 * {@link readRunInputs} that normalizes each contract the moment it is read
 * and keeps only the normalized model, so the raw documents (and their text)
 * never all live at once: the review's peak heap stays near the size of the
 * parsed contracts. Same statuses, values and issues as
 * `buildReviewModel(readRunInputs(…).contracts)`.
 *
 * @internal
 */
export async function readRunModel(
  fs: FileSystem,
  runDir: string,
  options: ReadRunOptions = {},
): Promise<Omit<RunInputs, 'contracts'> & { readonly model: ReviewModel }> {
  const { slots, ...rest } = await gatherRun(fs, runDir, options, readContractSlot);
  return { model: assembleReviewModel(slots), ...rest };
}
