import { z } from 'zod';
import type { Issue } from '../../errors.js';
import { issuesFromZod } from '../../errors.js';
import { goalEvaluationSectionSchema } from './goal-evaluation.js';

// rstack-agents reads `can_auto_remediate` inside `remediation`; the issue-level flag is accepted too.
const remediationViewSchema = z.looseObject({
  agent_to_rerun: z.string().nullable().optional(),
  can_auto_remediate: z.boolean().optional(),
});

/** One issue of feedback.json as the loop reads it (severity, owner, auto-remediation). @public */
export const feedbackIssueViewSchema = z.looseObject({
  id: z.string().optional(),
  severity: z.string().optional(),
  category: z.string().optional(),
  description: z.string().optional(),
  can_auto_remediate: z.boolean().optional(),
  remediation: remediationViewSchema.nullable().optional(),
});

/**
 * The parts of feedback.json the goal loop reads: the summary counts, the issues (for critical ones and who remediates
 * them) and the `goal_evaluation` section. @public
 */
export const feedbackViewSchema = z.looseObject({
  summary: z.looseObject({ critical_count: z.number().nullable().optional() }).optional(),
  issues: z.array(feedbackIssueViewSchema).default([]),
  goal_evaluation: goalEvaluationSectionSchema.nullable().optional(),
});

/** A feedback issue as the loop reads it. @public */
export type FeedbackIssueView = z.output<typeof feedbackIssueViewSchema>;

/** feedback.json as the loop reads it. @public */
export type FeedbackView = z.output<typeof feedbackViewSchema>;

/** The outcome of reading feedback.json for the loop. @public */
export type FeedbackRead =
  | { readonly state: 'missing' }
  | { readonly state: 'malformed'; readonly issues: readonly Issue[] }
  | {
      readonly state: 'present';
      readonly report: FeedbackView;
      readonly raw: unknown;
      /** Fields the loop could not read as written: each ignored (or, for a numeric string count, read as its number). */
      readonly issues?: readonly Issue[];
    };

type Path = readonly (string | number)[];

/**
 * Reads parsed feedback.json content into the loop's view, reading what can be read: a `summary.critical_count` written
 * as a numeric string (`"0"`) counts as its number, as the metric reader reads it. @public
 */
export function readFeedbackView(input: unknown): FeedbackRead {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const parsed = feedbackViewSchema.safeParse(input);
    return { state: 'malformed', issues: parsed.success ? [] : issuesFromZod(parsed.error) };
  }
  const issues: Issue[] = [];
  let view: unknown = input;
  const count = (input as { summary?: { critical_count?: unknown } }).summary?.critical_count;
  if (typeof count === 'string' && count.trim() !== '' && Number.isFinite(Number(count))) {
    view = withValue(view, ['summary', 'critical_count'], Number(count));
    issues.push({
      code: 'coerced',
      path: ['summary', 'critical_count'],
      message: `expected a number, got the string ${JSON.stringify(count)}; read as ${Number(count)}`,
    });
  }
  // Each pass drops the fields zod refuses; a handful of passes settles any document.
  for (let pass = 0; pass < 8; pass += 1) {
    const parsed = feedbackViewSchema.safeParse(view);
    if (parsed.success) return { state: 'present', report: parsed.data, raw: input, issues };
    const refused = issuesFromZod(parsed.error);
    if (refused.some((issue) => issue.path.length === 0)) break;
    for (const issue of refused) issues.push({ ...issue, message: `${issue.message}; ignored` });
    view = refused
      .map((issue) => issue.path)
      .sort((a, b) => compareDescending(a, b))
      .reduce((current, path) => withValue(current, path, undefined), view);
  }
  const parsed = feedbackViewSchema.safeParse(view);
  return { state: 'malformed', issues: parsed.success ? issues : [...issues, ...issuesFromZod(parsed.error)] };
}

// Descending path order (indexes compared as numbers), so removing an array item never shifts a path still to visit.
function compareDescending(a: Path, b: Path): number {
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const [x, y] = [a[index], b[index]];
    if (x === y) continue;
    return typeof x === 'number' && typeof y === 'number' ? y - x : String(y).localeCompare(String(x));
  }
  return b.length - a.length;
}

// A copy of `value` with the field at `path` set (or, for `undefined`, removed: an array item is taken out).
function withValue(value: unknown, path: Path, next: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return next;
  if (Array.isArray(value) && typeof head === 'number') {
    const copy = [...value];
    if (rest.length === 0 && next === undefined) copy.splice(head, 1);
    else copy[head] = withValue(copy[head], rest, next);
    return copy;
  }
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const key = String(head);
  if (rest.length === 0 && next === undefined) delete copy[key];
  else copy[key] = withValue(copy[key], rest, next);
  return copy;
}
