import { joinPath } from '../kit/paths.js';

/** The files of a run directory, relative to the filesystem root. @public */
export interface RunPaths {
  readonly runDir: string;
  readonly goal: string;
  readonly verdicts: string;
  readonly events: string;
  readonly state: string;
  readonly metrics: string;
  readonly lock: string;
  /** feedback.json of the feedback stage, then its legacy copy. */
  readonly feedback: readonly [string, string];
}

/** The paths of a run directory's files. @public */
export function runPaths(runDir: string, feedbackStage = '11-feedback-loop'): RunPaths {
  const at = (path: string): string => joinPath(runDir, path);
  return {
    runDir,
    goal: at('goal.json'),
    verdicts: at('goal-verdict.json'),
    events: at('events.jsonl'),
    state: at('loop-state.json'),
    metrics: at('metrics.json'),
    lock: at('loop.lock'),
    feedback: [at(`artifacts/stages/${feedbackStage}/feedback.json`), at('artifacts/feedback/consistency_report.json')],
  };
}
