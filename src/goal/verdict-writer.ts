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
  /**
   * The run's goal when it comes from code (the `goal` given to `GoalLoop`, e.g. from `defineGoal`): checked
   * instead of `<runDir>/goal.json` for the judge criterion `criterionId` must name.
   */
  readonly goal?: GoalInput;
  /**
   * The loop's stage ids (the `stages` given to `GoalLoop`): a `recommendedRerunStages` entry outside them is
   * refused, since the loop would ignore the verdict. Without them the stages are not checked.
   */
  readonly stages?: readonly string[];
}

// Every option has an entry (checked against WriteVerdictOptions), so a misspelt one (`reasonning`) is refused
// rather than left out of the verdict.
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
 * Appends a verdict to the run's goal-verdict.json, stamped with the
 * iteration that will consume it: the current one while an iteration is
 * running, otherwise the next one (so a human answering an `ask_user` stop
 * never computes iteration numbers). What the file holds is kept (it is
 * rewritten atomically as `{ "verdicts": [...] }`, with the other keys of such
 * a file, a `$schema` or an owner, where they were); a goal-verdict.json that
 * is not valid JSON, whose bytes are not UTF-8, or that holds no verdicts the
 * loop can read (a bare value, a `verdicts` that is not a list) or that
 * nests more than 1,000 levels deep (too deep to rewrite) is
 * `INVALID_CONTRACT` and left untouched; an unknown
 * option key or a wrong value is `INVALID_OPTIONS` naming its path, before
 * anything is read or written. `criterionId` must name a judge criterion of
 * the run's goal — the `goal` option when given (a goal from code), else
 * `<runDir>/goal.json` (no check without either, nor when goal.json is
 * invalid or cannot be read: the loop reports it; without the `goal` option,
 * a `runDir` that holds no run — nothing there, or no goal.json,
 * loop-state.json or events.jsonl — is `INVALID_OPTIONS` at `$.runDir`):
 * any other id is
 * `INVALID_OPTIONS` at `$.criterionId`, listing the judge criteria and the
 * one it most likely misspells, and nothing is written. Returns the verdict
 * written.
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
