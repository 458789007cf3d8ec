// The checks of writeVerdict against the run: its criterion against the goal option, else the run's goal.json (without
// either, that the run directory holds a run at all); its rerun stages against the pipeline's, when given.
import { GoalLoopError, type Issue, refuseOptions } from '../errors.js';
import { closestKey } from '../kit/unknown-keys.js';
import { runPaths } from '../pipeline/run-paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { readTextOrRefusal } from '../runtime/contained-read.js';
import type { GoalInput } from './contracts/goal.js';
import { loadGoal, loadGoalText } from './goal-source.js';

/** What a verdict is written for: the run, the criterion, and the goal when it comes from code. @internal */
export interface VerdictTarget {
  readonly runDir: string;
  readonly criterionId: string;
  readonly goal?: GoalInput;
}

/** The verdict must name a judge criterion of the goal (a typo would wait forever); else the run dir must hold a run. @internal */
export async function checkCriterion(fs: FileSystem, goalPath: string, options: VerdictTarget): Promise<void> {
  const { criterionId } = options;
  const source = options.goal === undefined ? goalPath : 'the goal option';
  const text = options.goal === undefined ? await readTextOrRefusal(fs, goalPath) : null;
  // A goal.json that cannot be read (not UTF-8, not a regular file) is the loop's to report, as an invalid one is.
  if (text instanceof GoalLoopError) return;
  // No goal and no run there: a misspelt runDir would otherwise get a verdict nothing ever reads.
  if (options.goal === undefined && text === null) {
    const missing = await noRunAt(fs, options.runDir);
    if (missing !== null)
      refuseOptions('writeVerdict', [
        {
          code: 'missing_run',
          path: ['runDir'],
          message: `${missing} (so no goal.json to check the criterion against): check runDir, or pass the goal option to write a verdict before the first run`,
        },
      ]);
  }
  const goal = options.goal === undefined ? loadGoalText(text) : await loadGoal(fs, goalPath, options.goal);
  if (!goal.ok) {
    // A goal from code that does not parse is the caller's mistake; an invalid goal.json is the loop's to report.
    if (goal.origin === 'option')
      refuseOptions(
        'writeVerdict',
        goal.issues.map((issue): Issue => ({ ...issue, path: ['goal', ...issue.path] })),
      );
    return;
  }
  if (goal.origin === 'default') return;
  const criterion = goal.goal.criteria.find((item) => item.id === criterionId);
  if (criterion?.kind === 'judge') return;
  const judges = goal.goal.criteria.filter((item) => item.kind === 'judge').map((item) => item.id);
  const suggestion = closestKey(criterionId, judges);
  const why = criterion === undefined ? 'no criterion' : `a ${criterion.kind} criterion, not a judge criterion,`;
  const hint = suggestion === undefined ? '.' : `; did you mean \`${suggestion}\`?`;
  const list = judges.length === 0 ? 'it has none' : `its judge criteria: ${judges.join(', ')}`;
  refuseOptions('writeVerdict', [
    {
      code: 'unknown_criterion',
      path: ['criterionId'],
      message: `goal ${goal.goalId} (${source}) has ${why} "${criterionId}"${hint} Verdicts answer judge criteria (${list}).`,
    },
  ]);
}

// Why `runDir` holds no run (nothing there, or none of a loop's files: state, events, verdicts), or null when it
// holds one.
async function noRunAt(fs: FileSystem, runDir: string): Promise<string | null> {
  if ((await fs.stat(runDir)) === null) return `no run directory "${runDir}" exists`;
  const paths = runPaths(runDir);
  const found = await Promise.all([paths.state, paths.events, paths.verdicts].map((path) => fs.stat(path)));
  return found.every((stat) => stat === null)
    ? `"${runDir}" holds no run (no goal.json, loop-state.json, events.jsonl or goal-verdict.json)`
    : null;
}

/** Every recommended rerun stage must be one of `stages`, when given (the loop ignores any other). @internal */
export function checkRerunStages(options: {
  readonly stages?: readonly string[];
  readonly recommendedRerunStages?: readonly string[];
}): void {
  const { stages, recommendedRerunStages = [] } = options;
  if (stages === undefined) return;
  const known = new Set(stages);
  const issues: Issue[] = [];
  recommendedRerunStages.forEach((stage, index) => {
    if (known.has(stage)) return;
    const suggestion = closestKey(stage, stages);
    const hint = suggestion === undefined ? '' : `; did you mean \`${suggestion}\`?`;
    const message = `"${stage}" is not a stage of the pipeline (${stages.join(', ')})${hint}`;
    issues.push({ code: 'unknown_stage', path: ['recommendedRerunStages', index], message });
  });
  if (issues.length > 0) refuseOptions('writeVerdict', issues);
}
