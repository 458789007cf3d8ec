import { z } from 'zod';
import { formatIssue, issuesFromZod, refuseInvalidOptions } from '../errors.js';
import { joinPath } from '../kit/paths.js';
import { runPaths } from '../pipeline/run-paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { type LoopEvent, loopEventSchema } from './contracts/events.js';
import { type LoopState, loopStateSchema } from './contracts/loop-state.js';
import { readMetricValue } from './core/metric.js';
import { buildRunReport } from './core/run-report-build.js';
import { renderRunReportMarkdown } from './core/run-report-markdown.js';
import { type ReportEvaluationFile, type RunReportInput, reportIterationNumbers } from './core/run-report-model.js';
import { iterationEvaluationPath } from './loop-events.js';
import { type ReportFiles, readReportEvaluation, reportFiles } from './run-report-files.js';

/** Options of {@link renderRunReport}. @public */
export interface RenderRunReportOptions {
  /** The project's filesystem. */
  readonly fs: FileSystem;
  /** The run directory, relative to the filesystem root. */
  readonly runDir: string;
}

const optionShape = {
  fs: z.custom((value) => typeof (value as { readText?: unknown } | null)?.readText === 'function', {
    message: 'fs must be a FileSystem',
  }),
  runDir: z.string().min(1),
} satisfies Record<keyof RenderRunReportOptions, z.ZodType>;

// The most bad event lines named one by one; the rest are counted.
const MAX_LINE_PROBLEMS = 5;

/**
 * Renders a whole run as Markdown: each iteration's stages, status, score and failing criteria, the spend, the stop
 * and a Mermaid flowchart. Writes nothing, takes no lock; a damaged run still renders, naming what it could not read.
 *
 * @example
 * ```ts
 * const markdown = await renderRunReport({ fs: createNodeFileSystem(root), runDir: '.goal-loop/runs/r-42' });
 * await writeFile('report.md', markdown);
 * ```
 * @public
 */
export async function renderRunReport(options: RenderRunReportOptions): Promise<string> {
  refuseInvalidOptions('renderRunReport', optionShape, options);
  const { fs, runDir } = options;
  const paths = runPaths(runDir);
  const files = reportFiles(fs);
  const [eventsText, stateJson, metricsJson, entries] = await Promise.all([
    files.text(paths.events, true),
    files.json(paths.state, true),
    files.json(paths.metrics, false),
    files.list(joinPath(runDir, 'iterations')),
  ]);
  const state = parseState(files, paths.state, stateJson);
  const events = withOutbox(parseEvents(files, paths.events, eventsText ?? ''), state);
  const onDisk = (entries ?? []).filter((name) => /^[1-9]\d*$/.test(name)).map(Number);
  const numbers = reportIterationNumbers(events, onDisk, state?.iteration ?? 0);
  const evaluated = new Set(events.filter((event) => event.type === 'goal_evaluated').map((event) => event.iteration));
  const evaluations = new Map<number, ReportEvaluationFile>();
  await Promise.all(
    numbers.map(async (n) => {
      const path = iterationEvaluationPath(runDir, n);
      const json = await files.json(path, evaluated.has(n));
      if (json === null) return void evaluations.set(n, { path, evaluation: null });
      const read = readReportEvaluation(path, json);
      if ('problem' in read) files.problems.push(read.problem);
      evaluations.set(n, { path, evaluation: 'evaluation' in read ? read.evaluation : null });
    }),
  );
  const input: RunReportInput = {
    runDir,
    events,
    evaluations,
    state:
      state === null
        ? null
        : {
            goalId: state.goal_id,
            phase: state.phase,
            stop:
              state.stop === null
                ? null
                : { stoppedOn: state.stop.stopped_on, reason: state.stop.reason, iteration: state.stop.iteration },
            spentUsd: state.spent_usd,
          },
    metricsSpentUsd: metricsSpend(files, paths.metrics, metricsJson),
    problems: [...files.problems].sort((a, b) => a.path.localeCompare(b.path)),
  };
  return renderRunReportMarkdown(buildRunReport(input));
}

// loop-state.json against its schema; a mismatch is a problem naming its first fields.
function parseState(files: ReportFiles, path: string, json: unknown): LoopState | null {
  if (json === null) return null;
  const parsed = loopStateSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error).slice(0, 3).map(formatIssue);
  files.problems.push({ path, message: `not a loop state: ${issues.join('; ')}` });
  return null;
}

// Each line of events.jsonl that is an event; torn and foreign lines are problems naming their line.
function parseEvents(files: ReportFiles, path: string, text: string): LoopEvent[] {
  const events: LoopEvent[] = [];
  const bad: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const torn = index === lines.length - 1;
    let parsed: ReturnType<typeof loopEventSchema.safeParse> | null = null;
    try {
      parsed = loopEventSchema.safeParse(JSON.parse(line));
    } catch {
      parsed = null;
    }
    if (parsed?.success) events.push(parsed.data);
    else bad.push(`line ${index + 1}${torn ? ' (torn: no line end, a crash mid-append)' : ''}`);
  });
  if (bad.length > 0) {
    const named = bad.slice(0, MAX_LINE_PROBLEMS).join(', ');
    const more = bad.length > MAX_LINE_PROBLEMS ? ` and ${bad.length - MAX_LINE_PROBLEMS} more` : '';
    files.problems.push({ path, message: `skipped ${bad.length} line(s) that are not events: ${named}${more}` });
  }
  return events;
}

// The events the state's outbox holds that the log does not have yet (a crash between the two writes).
function withOutbox(events: LoopEvent[], state: LoopState | null): LoopEvent[] {
  if (state === null) return events;
  const last = events.reduce((max, event) => Math.max(max, event.seq), -1);
  return [...events, ...state.outbox.filter((event) => event.seq > last)];
}

// cumulative_cost_usd of metrics.json, or null (absent, or not a number: a problem).
function metricsSpend(files: ReportFiles, path: string, json: unknown): number | null {
  if (json === null || typeof json !== 'object' || !('cumulative_cost_usd' in json)) return null;
  const reading = readMetricValue(json.cumulative_cost_usd);
  if (reading.kind === 'number') return reading.value;
  files.problems.push({ path, message: 'cumulative_cost_usd is not a number' });
  return null;
}
