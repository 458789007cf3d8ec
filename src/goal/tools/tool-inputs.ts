import { z } from 'zod';
import { isGoalLoopError, stageIdsOption } from '../../errors.js';
import { isInside, normalizePath } from '../../kit/paths.js';
import { toolError } from '../../ports/define-tool.js';
import type { FileSystem } from '../../ports/file-system.js';
import { MAX_PATH_CHARS } from '../../ports/input-bounds.js';
import type { ToolError } from '../../ports/tool.js';
import { readLoopStatus } from '../loop-status.js';

/** The `run_dir` field every goal tool takes: a run directory relative to the project root, inside it. @internal */
export const runDirInput = z
  .string()
  .min(1)
  .max(MAX_PATH_CHARS)
  .refine((dir) => !dir.startsWith('/') && isInside(dir, '.') && normalizePath(dir) !== '.', {
    message: 'run_dir must be a relative path inside the project root (e.g. .goal-loop/runs/r-42)',
  })
  .describe('The run directory, relative to the project root (e.g. .goal-loop/runs/r-42).');

/** Stage ids of a pipeline, in order, none repeated. @internal */
export const stagesInput = stageIdsOption.min(1).readonly();

/** An issue as the goal tools' outputs carry it. @internal */
export const issueOutput = z.strictObject({
  code: z.string(),
  path: z.array(z.union([z.string(), z.number()])).readonly(),
  message: z.string(),
});

/**
 * A library function's `INVALID_OPTIONS` error as a tool's `invalid_input` error, with each issue's option name
 * (`criterionId`) renamed to the input field it came from (`criterion_id`), so the JSON path names the input. @internal
 */
export function asInputError(error: unknown, fields: Readonly<Record<string, string>>): ToolError {
  if (!isGoalLoopError(error, 'INVALID_OPTIONS')) throw error;
  const issues = error.issues.map((issue) => {
    const [head, ...rest] = issue.path;
    if (head === undefined) return issue;
    return { ...issue, path: [typeof head === 'string' ? (fields[head] ?? head) : head, ...rest] };
  });
  // The message is built from the renamed issues alone: the library's names its own option paths.
  return toolError('invalid_input', 'Invalid input', issues);
}

/** The stages a run's loop-state.json records (none for a run no loop has run yet). @internal */
export async function recordedStages(fs: FileSystem, runDir: string): Promise<readonly string[]> {
  return Object.keys((await readLoopStatus({ fs, runDir })).stageStatus);
}
