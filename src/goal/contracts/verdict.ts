import { z } from 'zod';
import type { Issue } from '../../errors.js';
import { issuesFromZod, refuseInvalidOptions } from '../../errors.js';
import { pushAll } from '../../kit/record.js';
import { isNameList, isNonEmptyString, isObject, isOptionalString } from '../../kit/zod-fast-path.js';
import { parseOptionShape } from './parse-goal.js';

/** One judge verdict in `goal-verdict.json`, written by a host or a human. @public */
export const verdictSchema = z.looseObject({
  criterion_id: z.string().min(1).optional(),
  verdict: z.enum(['PASS', 'FAIL']),
  judge: z.string().optional(),
  reasoning: z.string().optional(),
  score: z.number().optional(),
  iteration: z.int().min(0).optional(),
  recommendation: z.enum(['retry', 'block']).optional(),
  recommended_rerun_stages: z.array(z.string().min(1)).optional(),
});

/** A verdict of `goal-verdict.json`. @public */
export type Verdict = z.output<typeof verdictSchema>;

/** The schema of the whole `goal-verdict.json`: a single verdict, an array, or `{ "verdicts": [...] }`. @public */
export const verdictFileSchema = z.union([
  verdictSchema,
  z.array(verdictSchema),
  z.looseObject({ verdicts: z.array(verdictSchema) }),
]);

/** What {@link parseVerdictFile} found: the valid verdicts and an issue per malformed entry. @public */
export interface ParsedVerdicts {
  readonly verdicts: readonly Verdict[];
  readonly issues: readonly Issue[];
}

/** Options of {@link parseVerdictFile}. @public */
export interface ParseVerdictOptions {
  /** Stage ids of the pipeline: a verdict naming any other rerun stage is reported and ignored. */
  readonly stages?: readonly string[];
}

/** Parses the content of `goal-verdict.json`. @public */
export function parseVerdictFile(input: unknown, options: ParseVerdictOptions = {}): ParsedVerdicts {
  refuseInvalidOptions('parseVerdictFile', parseOptionShape, options);
  const located = locateEntries(input);
  if (located === null) {
    return {
      verdicts: [],
      issues: [
        {
          code: 'invalid_type',
          path: [],
          message: 'expected a verdict object, an array of verdicts, or { "verdicts": [...] }',
        },
      ],
    };
  }
  const verdicts: Verdict[] = [];
  const issues: Issue[] = [];
  const known = options.stages === undefined ? undefined : new Set(options.stages);
  located.entries.forEach((entry, index) => {
    // The common entry, valid as it is and naming only known stages, is kept in place; any other goes through zod.
    if (isCanonicalVerdict(entry) && namesKnownStages(entry, known)) {
      verdicts.push(entry);
      return;
    }
    const path = [...located.base, ...(located.single ? [] : [index])];
    const parsed = verdictSchema.safeParse(entry);
    if (!parsed.success) {
      pushAll(issues, issuesFromZod(parsed.error, path));
      return;
    }
    const unknownStages = (parsed.data.recommended_rerun_stages ?? []).flatMap((stage, stageIndex) =>
      known !== undefined && !known.has(stage) ? [{ stage, stageIndex }] : [],
    );
    if (unknownStages.length > 0) {
      for (const { stage, stageIndex } of unknownStages) {
        issues.push({
          code: 'unknown_stage',
          path: [...path, 'recommended_rerun_stages', stageIndex],
          message: `"${stage}" is not a stage of the configured pipeline; verdict ignored`,
        });
      }
      return;
    }
    verdicts.push(parsed.data);
  });
  return { verdicts, issues };
}

/** True for plain data {@link verdictSchema} accepts as it is. @internal */
export function isCanonicalVerdict(value: unknown): value is Verdict {
  if (!isObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const stages = value.recommended_rerun_stages;
  if (stages !== undefined && (!isNameList(stages) || Object.getPrototypeOf(stages) !== Array.prototype)) return false;
  const { iteration, score } = value;
  return (
    (value.criterion_id === undefined || isNonEmptyString(value.criterion_id)) &&
    (value.verdict === 'PASS' || value.verdict === 'FAIL') &&
    isOptionalString(value.judge) &&
    isOptionalString(value.reasoning) &&
    (score === undefined || (typeof score === 'number' && Number.isFinite(score))) &&
    (iteration === undefined || (Number.isSafeInteger(iteration) && (iteration as number) >= 0)) &&
    (value.recommendation === undefined || value.recommendation === 'retry' || value.recommendation === 'block')
  );
}

// True when every rerun stage a verdict names is a stage of the pipeline (always, when no pipeline is given).
function namesKnownStages(verdict: Verdict, known: ReadonlySet<string> | undefined): boolean {
  const stages = verdict.recommended_rerun_stages;
  return known === undefined || stages === undefined || stages.every((stage) => known.has(stage));
}

// Finds the verdict entries in any of the three accepted file shapes.
function locateEntries(input: unknown): { entries: unknown[]; base: (string | number)[]; single: boolean } | null {
  if (Array.isArray(input)) return { entries: input, base: [], single: false };
  if (typeof input !== 'object' || input === null) return null;
  const record = input as Record<string, unknown>;
  if ('verdicts' in record) {
    return Array.isArray(record.verdicts) ? { entries: record.verdicts, base: ['verdicts'], single: false } : null;
  }
  return { entries: [input], base: [], single: true };
}
