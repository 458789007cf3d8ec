import { parseJsonText } from '../errors.js';
import { joinPath } from '../kit/paths.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { FileSystem } from '../ports/file-system.js';
import type { RstackRunFiles } from './core/rstack-stages.js';

/**
 * Reads the files an rstack-agents run directory keeps its stage state in:
 * metrics.json, tasks.json, approvals.json and decisions.json. Each is read
 * as rstack-agents reads it, tolerantly: a file that is absent, not JSON, or
 * cannot be read is `null`, never an error of the evaluation.
 *
 * @internal
 */
export async function readRstackRunFiles(fs: FileSystem, paths: RunPaths): Promise<RstackRunFiles> {
  const [metrics, tasks, approvals, decisions] = await Promise.all([
    readJson(fs, paths.metrics),
    readJson(fs, joinPath(paths.runDir, 'tasks.json')),
    readJson(fs, joinPath(paths.runDir, 'approvals.json')),
    readJson(fs, joinPath(paths.runDir, 'decisions.json')),
  ]);
  return { metrics, tasks, approvals, decisions };
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
