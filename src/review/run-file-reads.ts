// Reading the files of a run directory for the review, each under the containment rule: the stage contracts (canonical
// path first, then legacy ones), goal.json, manifest.json, the latest iteration and the file_exists evidence.
import { GoalLoopError, type Issue, parseJsonText } from '../errors.js';
import { readLatestIterationStarted } from '../goal-shared.js';
import { type Goal, parseGoal } from '../index.js';
import { joinPath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { failureOf, readContainedText } from '../runtime/contained-read.js';
import { type RealpathCache, resolveContainedPath } from '../runtime/containment.js';
import type { ContractInput } from './core/contract-input.js';
import type { ContractSlot } from './core/contract-slots.js';
import type { FileCheck } from './core/goal-evaluation.js';

/** Reads one contract slot: the canonical path first, then each legacy path; null text means missing, an unreadable file is malformed. @internal */
export async function readSlot(
  fs: FileSystem,
  runDir: string,
  slot: ContractSlot,
  cache: RealpathCache,
): Promise<ContractInput> {
  const candidates = [slot.canonicalPath, ...slot.legacyPaths];
  for (const [index, path] of candidates.entries()) {
    const text = await readContainedText(fs, joinPath(runDir, path), cache);
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

/** Reads goal.json as the loop does (parseGoal): absent → no goal (not the loop's default goal); present → parsed strictly, or its issues (unreadable or not JSON is one). @internal */
export async function readGoal(
  fs: FileSystem,
  path: string,
  stages: readonly string[] | undefined,
  cache: RealpathCache,
): Promise<{ goal: Goal | null; issues: readonly Issue[] }> {
  const text = await readContainedText(fs, path, cache);
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

/** Reads manifest.json tolerantly: a missing, refused, unreadable or unparsable manifest is no manifest. @internal */
export async function readManifest(fs: FileSystem, path: string, cache: RealpathCache): Promise<unknown> {
  const text = await readContainedText(fs, path, cache);
  if (typeof text !== 'string') return undefined;
  const parsed = parseJsonText(text);
  return parsed.ok ? parsed.value : undefined;
}

/** Checks each file_exists criterion's path against its own base (run dir or root), keyed by criterion id; a check that fails records why. @internal */
export async function checkFileCriteria(
  fs: FileSystem,
  runDir: string,
  goal: Goal | null,
): Promise<Map<string, FileCheck>> {
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

/** The iteration to stamp: the latest loop_iteration_started, never passed by a caller's override (used as is only before any loop iteration). @internal */
export async function stampedIteration(
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
