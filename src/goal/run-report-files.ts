import { z } from 'zod';
import { formatIssue, issuesFromZod, parseJsonText } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { readJsonlText } from '../runtime/committed-records.js';
import { type RealpathCache, resolveContainedPath } from '../runtime/containment.js';
import type { ReportEvaluation, ReportProblem } from './core/run-report-model.js';

/** The run's files read for a report: each read that fails adds a problem naming the path, never a throw. @internal */
export interface ReportFiles {
  readonly problems: ReportProblem[];
  /** The text of a run file; `null` when missing (a problem when `required`), refused or unreadable. */
  text(path: string, required: boolean): Promise<string | null>;
  /** The parsed JSON of a run file, with the same rules. */
  json(path: string, required: boolean): Promise<unknown>;
  /** The entries of a run directory; `null` when it is missing or cannot be listed. */
  list(path: string): Promise<string[] | null>;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A reader of run files that records every failure as a problem. @internal */
export function reportFiles(fs: FileSystem): ReportFiles {
  const problems: ReportProblem[] = [];
  const cache: RealpathCache = new Map();
  // The path after containment; a refused path (a symlink out of the project) is a problem and not read.
  const resolve = async (path: string) => {
    const fact = await resolveContainedPath(fs, path, { cache });
    if (fact.state === 'refused') problems.push({ path, message: `refused: ${fact.detail}` });
    return fact;
  };
  const text = async (path: string, required: boolean): Promise<string | null> => {
    try {
      const fact = await resolve(path);
      if (fact.state === 'refused') return null;
      // A JSONL log is read as one whose last line may be torn inside a character (events.jsonl after a crash).
      const read = (file: string) => (file.endsWith('.jsonl') ? readJsonlText(fs, file) : fs.readText(file));
      const content = fact.state === 'missing' ? null : await read(fact.path);
      if (content === null && required) problems.push({ path, message: 'missing' });
      return content;
    } catch (error) {
      problems.push({ path, message: `unreadable: ${message(error)}` });
      return null;
    }
  };
  return {
    problems,
    text,
    async json(path, required) {
      const content = await text(path, required);
      if (content === null) return null;
      const parsed = parseJsonText(content);
      if (parsed.ok) return parsed.value;
      problems.push({ path, message: parsed.issue.message });
      return null;
    },
    async list(path) {
      try {
        const fact = await resolve(path);
        return fact.state === 'present' ? await fs.list(fact.path) : null;
      } catch (error) {
        problems.push({ path, message: `cannot be listed: ${message(error)}` });
        return null;
      }
    },
  };
}

const checkSchema = z.looseObject({
  id: z.string(),
  kind: z.string().optional(),
  status: z.string(),
  detail: z.string().default(''),
});

// The fields of iterations/<n>/evaluation.json the report shows (the file holds a whole GoalEvaluation).
const evaluationFileSchema = z.looseObject({
  status: z.string(),
  score: z.number(),
  minScore: z.number().optional(),
  reason: z.string(),
  criteria: z.array(checkSchema).default([]),
  builtins: z.array(checkSchema).default([]),
  recommendedRerunStages: z.array(z.string()).default([]),
});

/**
 * The report's view of an evaluation file's JSON, or a problem naming the
 * path and the first fields that do not match.
 *
 * @internal
 */
export function readReportEvaluation(
  path: string,
  json: unknown,
): { evaluation: ReportEvaluation } | { problem: ReportProblem } {
  const parsed = evaluationFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error).slice(0, 3).map(formatIssue);
    return { problem: { path, message: `not an evaluation: ${issues.join('; ')}` } };
  }
  const { data } = parsed;
  const failing = [
    ...data.criteria.map((check) => ({ ...check, kind: check.kind ?? 'criterion' })),
    ...data.builtins.map((check) => ({ ...check, kind: 'built-in' })),
  ]
    .filter((check) => check.status !== 'PASS')
    .map(({ id, kind, status, detail }) => ({ id, kind, status, detail }));
  return {
    evaluation: {
      status: data.status,
      score: data.score,
      minScore: data.minScore ?? null,
      reason: data.reason,
      failing,
      recommendedRerunStages: data.recommendedRerunStages,
    },
  };
}
