import { GoalLoopError } from '../errors.js';
import { joinPath } from '../kit/paths.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { type RealpathCache, resolveContainedPath } from '../runtime/containment.js';

/** The run's own files with symlinks resolved; one leading out of the project is an error naming it. @internal */
export async function containRunPaths(fs: FileSystem, paths: RunPaths): Promise<RunPaths> {
  const cache: RealpathCache = new Map();
  // goal.json and goal-verdict.json are written by people and hosts, not by the loop: one that cannot be resolved
  // (a symlink loop) is `keep`, left to its read, which fails and is reported as that file's problem, not the run's.
  const resolve = async (path: string, unresolvable: 'throw' | 'keep' = 'throw'): Promise<string> => {
    const fact = await resolveContainedPath(fs, path, { cache }).catch((error: unknown) => {
      if (unresolvable === 'keep' && error instanceof GoalLoopError && error.code === 'IO_ERROR') return null;
      throw error;
    });
    if (fact === null) return path;
    if (fact.state === 'refused') {
      throw new GoalLoopError('IO_ERROR', `The run file ${path} is refused: ${fact.detail}.`);
    }
    return fact.path;
  };
  const [runDir, goal, verdicts, events, state, metrics, lock, feedback, legacyFeedback] = await Promise.all([
    resolve(paths.runDir),
    resolve(paths.goal, 'keep'),
    resolve(paths.verdicts, 'keep'),
    resolve(paths.events),
    resolve(paths.state),
    resolve(paths.metrics),
    resolve(paths.lock),
    resolve(paths.feedback[0]),
    resolve(paths.feedback[1]),
    resolve(joinPath(paths.runDir, 'iterations')),
  ]);
  return { runDir, goal, verdicts, events, state, metrics, lock, feedback: [feedback, legacyFeedback] };
}
