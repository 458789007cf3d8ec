import { z } from 'zod';
import { formatIssue, GoalLoopError, issuesFromZod, refuseInvalidOptions } from '../errors.js';
import { type RunPaths, runPaths } from '../pipeline/run-paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { createJsonStore } from '../runtime/json-store.js';
import type { GoalInput } from './contracts/goal.js';
import { loopStateSchema } from './contracts/loop-state.js';
import { type Verdict, verdictSchema } from './contracts/verdict.js';
import { consumingIteration } from './core/claims.js';
import { readLatestIterationStarted } from './loop-events.js';
import { containRunPaths } from './run-files.js';
import { checkCriterion, checkRerunStages } from './verdict-criterion.js';
import { withVerdict } from './verdict-file.js';
import { withVerdictLock } from './verdict-lock.js';

/** What {@link writeVerdict} writes: a verdict for one judge criterion (the iteration is stamped for you). @public */
export interface WriteVerdictOptions {
  readonly fs: FileSystem;
  readonly runDir: string;
  readonly criterionId: string;
  readonly verdict: 'PASS' | 'FAIL';
  readonly judge?: string;
  readonly reasoning?: string;
  readonly score?: number;
  /** On FAIL: `block` stops the loop `blocked`; `retry` (the default) reruns the criterion's stages. */
  readonly recommendation?: 'retry' | 'block';
  /** On FAIL: the stages to rerun instead of the criterion's own `rerun_stages`. */
  readonly recommendedRerunStages?: readonly string[];
  /** The run's goal when it comes from code (checked instead of `<runDir>/goal.json`). */
  readonly goal?: GoalInput;
  /** The loop's stage ids: a `recommendedRerunStages` entry outside them is refused. */
  readonly stages?: readonly string[];
}

// One entry per option, so a misspelt one is refused rather than dropped.
const optionShape = {
  fs: z.custom((value) => typeof (value as { writeText?: unknown } | null)?.writeText === 'function', {
    message: 'fs must be a FileSystem',
  }),
  runDir: z.string().min(1),
  criterionId: z.string().min(1),
  verdict: z.enum(['PASS', 'FAIL']),
  judge: z.string().optional(),
  reasoning: z.string().optional(),
  score: z.number().optional(),
  recommendation: z.enum(['retry', 'block']).optional(),
  recommendedRerunStages: z.array(z.string().min(1)).optional(),
  goal: z.record(z.string(), z.unknown(), { message: 'goal must be a goal object (as defineGoal makes)' }).optional(),
  stages: z
    .array(z.string().min(1))
    .min(1)
    .refine((stages) => new Set(stages).size === stages.length, { message: 'stages must not repeat a stage id' })
    .optional(),
} satisfies Record<keyof WriteVerdictOptions, z.ZodType>;

/**
 * Appends a verdict to the run's goal-verdict.json under its lock, stamped with the iteration that will consume it
 * (the running one, else the next). `criterionId` must name a judge criterion of the run's goal (the `goal` option,
 * else goal.json); an unknown one is `INVALID_OPTIONS` with a did-you-mean, and a file the loop cannot read is
 * `INVALID_CONTRACT`, left untouched. Returns the verdict written.
 *
 * @example
 * ```ts
 * await writeVerdict({ fs, runDir: '.goal-loop/runs/r-42', criterionId: 'design-review', verdict: 'PASS', judge: 'human:architect' });
 * const result = await loop.run(); // consumes it
 * ```
 * @public
 */
export async function writeVerdict(options: WriteVerdictOptions): Promise<Verdict> {
  refuseInvalidOptions('writeVerdict', optionShape, options);
  const { fs, runDir } = options;
  // A goal or stages given as options are checked before anything is read: a mistake in them is the caller's.
  checkRerunStages(options);
  if (options.goal !== undefined) await checkCriterion(fs, '', options);
  const paths = await containRunPaths(fs, runPaths(runDir));
  const verdict = verdictSchema.safeParse({
    criterion_id: options.criterionId,
    verdict: options.verdict,
    ...(options.judge === undefined ? {} : { judge: options.judge }),
    ...(options.reasoning === undefined ? {} : { reasoning: options.reasoning }),
    ...(options.score === undefined ? {} : { score: options.score }),
    iteration: await stampNow(fs, paths),
    ...(options.recommendation === undefined ? {} : { recommendation: options.recommendation }),
    ...(options.recommendedRerunStages === undefined
      ? {}
      : { recommended_rerun_stages: [...options.recommendedRerunStages] }),
  });
  // Each issue at the option that gave the field (criterion_id → $.criterionId).
  if (!verdict.success) {
    const issues = issuesFromZod(verdict.error).map((issue) => ({ ...issue, path: optionPathOf(issue.path) }));
    throw new GoalLoopError('INVALID_OPTIONS', `Invalid writeVerdict options: ${issues.map(formatIssue).join('; ')}`, {
      issues,
    });
  }
  if (options.goal === undefined) await checkCriterion(fs, paths.goal, options);
  const written = verdict.data;
  await withVerdictLock(fs, paths.verdicts, async (write) => {
    const document = await withVerdict(fs, paths.verdicts, written);
    await write(`${JSON.stringify(document, null, 2)}\n`);
  });
  return written;
}

// The option path of a verdict field's issue path (snake_case field → camelCase option).
function optionPathOf(path: readonly (string | number)[]): (string | number)[] {
  const [field, ...rest] = path;
  const option =
    typeof field === 'string' ? field.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) : field;
  return option === undefined ? [] : [option, ...rest];
}

// The iteration a verdict written now is consumed by: the running one, else the next.
async function stampNow(fs: FileSystem, paths: RunPaths): Promise<number> {
  const [state, latest] = await Promise.all([
    createJsonStore(fs, paths.state, loopStateSchema).load(),
    readLatestIterationStarted(fs, paths.events),
  ]);
  return consumingIteration(state, latest);
}
