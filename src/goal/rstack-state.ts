import { parseJsonText } from '../errors.js';
import { joinPath } from '../kit/paths.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { FileSystem } from '../ports/file-system.js';
import type { StageStatus } from './core/facts.js';
import { type RstackRunFiles, stageStatusesFromRstack } from './core/rstack-stages.js';

/** Reads rstack-agents' stage-state files tolerantly, as rstack-agents does (`null` for what cannot be read). @internal */
async function readRstackRunFiles(
  fs: FileSystem,
  paths: RunPaths,
  metricsRead?: Promise<unknown>,
): Promise<RstackRunFiles> {
  const [metrics, tasks, approvals, decisions] = await Promise.all([
    metricsRead ?? readJson(fs, paths.metrics),
    readJson(fs, joinPath(paths.runDir, 'tasks.json')),
    readJson(fs, joinPath(paths.runDir, 'approvals.json')),
    readJson(fs, joinPath(paths.runDir, 'decisions.json')),
  ]);
  return { metrics, tasks, approvals, decisions };
}

/** The status rstack-agents' files give each stage, to seed a new loop record on an rstack run. @internal */
export async function readRstackStageStatuses(
  fs: FileSystem,
  paths: RunPaths,
  stages: readonly string[],
  metrics?: Promise<unknown>,
): Promise<Record<string, StageStatus>> {
  return stages.length === 0 ? {} : stageStatusesFromRstack(await readRstackRunFiles(fs, paths, metrics), stages);
}

// A file's parsed JSON, or null when it is absent, unreadable or not JSON.
async function readJson(fs: FileSystem, path: string): Promise<unknown> {
  let text: string | null;
  try {
    text = await fs.readText(path);
  } catch {
    return null;
  }
  if (text === null) return null;
  const json = parseJsonText(text);
  return json.ok ? json.value : null;
}
