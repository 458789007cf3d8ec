import type { Issue } from '../errors.js';
import type { Goal } from '../index.js';
import { joinPath } from '../kit/paths.js';
import { runPaths } from '../pipeline/run-paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { limitFunction } from '../runtime/concurrency.js';
import type { RealpathCache } from '../runtime/containment.js';
import type { ContractInput, ReviewContracts } from './core/contract-input.js';
import { type ContractSlot, REVIEW_CONTRACT_SLOTS } from './core/contract-slots.js';
import type { FileCheck } from './core/goal-evaluation.js';
import { assembleReviewModel, type ReviewModel, readContractSlot } from './core/model.js';
import { validateReadRunOptions } from './review-options.js';
import { checkFileCriteria, readGoal, readManifest, readSlot, stampedIteration } from './run-file-reads.js';

/** The default bound on concurrent contract reads. @public */
export const DEFAULT_READ_CONCURRENCY = 8;

/** Options of {@link readRunInputs}. @public */
export interface ReadRunOptions {
  /** Use this goal instead of reading goal.json (`null`: no goal). */
  readonly goal?: Goal | null;
  /** Stamp this iteration (`null`: outside a loop). */
  readonly iteration?: number | null;
  /** Stage ids goal.json's `rerun_stages` must belong to (default: not checked, so a custom pipeline's goal reads as it is). */
  readonly stages?: readonly string[];
  /** At most this many files are read at once (default 8). */
  readonly concurrency?: number;
}

/**
 * Everything the review gathers from a run directory before deciding: the contract inputs, the goal (or its issues),
 * the manifest, the iteration to stamp and, by criterion id, what is at each `file_exists` criterion's path. @public
 */
export interface RunInputs {
  readonly contracts: ReviewContracts;
  readonly goal: Goal | null;
  readonly goalIssues: readonly Issue[];
  readonly manifest: unknown;
  readonly iteration: number | null;
  readonly fileChecks: ReadonlyMap<string, FileCheck>;
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

/** Gathers the review's inputs from a run directory through the FileSystem port. @public */
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

/** {@link readRunInputs} keeping only the normalized model: the raw documents never all live at once. @internal */
export async function readRunModel(
  fs: FileSystem,
  runDir: string,
  options: ReadRunOptions = {},
): Promise<Omit<RunInputs, 'contracts'> & { readonly model: ReviewModel }> {
  const { slots, ...rest } = await gatherRun(fs, runDir, options, readContractSlot);
  return { model: assembleReviewModel(slots), ...rest };
}
