import { formatJsonPath, GoalLoopError, parseJsonText } from '../errors.js';
import { pathBeyondDepth } from '../kit/json-depth.js';
import type { FileSystem } from '../ports/file-system.js';
import { readDocumentText } from '../runtime/contained-read.js';
import { readMetricValue } from './core/metric.js';

// What to do about a metrics.json the loop refuses.
const METRICS_ADVICE = 'fix it before running the loop, so its budget is checked against the real spend.';

/** `cumulative_cost_usd` (0 when absent); anything unreadable is `INVALID_CONTRACT`, never a budget check. @internal */
export async function readRecordedSpend(fs: FileSystem, path: string): Promise<number> {
  const metrics = metricsOf(await readDocumentText(fs, path, METRICS_ADVICE), path);
  if (metrics instanceof GoalLoopError) throw metrics;
  const spent = recordedSpendOf(metrics, path);
  if (spent instanceof GoalLoopError) throw spent;
  return spent;
}

/** The recorded spend, or the `INVALID_CONTRACT` error, for readers that report rather than refuse. Pure. @internal */
export function recordedSpendOf(metrics: Readonly<Record<string, unknown>>, path: string): number | GoalLoopError {
  const value = metrics.cumulative_cost_usd;
  if (value === undefined) return 0;
  const reading = readMetricValue(value);
  if (reading.kind === 'number' && reading.value >= 0) return reading.value;
  const got = `got ${typeof value === 'number' && !Number.isFinite(value) ? `${value}: the file holds a number too large for a double, such as 1e999` : JSON.stringify(value)}`;
  const message = `cumulative_cost_usd must be a number ≥ 0 (${got})`;
  return new GoalLoopError('INVALID_CONTRACT', `${path}: ${message}; ${METRICS_ADVICE}`, {
    issues: [{ code: 'invalid_type', path: ['cumulative_cost_usd'], message }],
  });
}

/** Raises the recorded spend, never lowers it; other fields kept. @internal */
export async function raiseRecordedSpend(fs: FileSystem, path: string, spentUsd: number): Promise<void> {
  const recorded = await readRecordedSpend(fs, path);
  // Spend is kept to a billionth of a dollar (kit/usd.ts): half of one is float noise, a whole one is spend.
  if (recorded >= spentUsd - 5e-10) return;
  const metrics = await readMetrics(fs, path);
  // metricsOf refused a file nested too deep for JSON.stringify, so this cannot overflow the stack.
  const text = `${JSON.stringify({ ...metrics, cumulative_cost_usd: spentUsd }, null, 2)}\n`;
  await fs.writeText(path, text);
}

// A non-object or too-deep metrics.json is INVALID_CONTRACT, never overwritten.
async function readMetrics(fs: FileSystem, path: string): Promise<Record<string, unknown>> {
  const metrics = metricsOf(await readDocumentText(fs, path, METRICS_ADVICE), path);
  if (metrics instanceof GoalLoopError) throw metrics;
  return metrics;
}

/** metrics.json as an object (`{}` when absent), or the `INVALID_CONTRACT` error. Pure. @internal */
export function metricsOf(text: string | null, path: string): Record<string, unknown> | GoalLoopError {
  if (text === null) return {};
  const json = parseJsonText(text);
  if (json.ok && typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value))
    return tooDeep(json.value, path) ?? (json.value as Record<string, unknown>);
  const issue = json.ok ? { code: 'invalid_type', path: [], message: 'expected a JSON object' } : json.issue;
  return new GoalLoopError(
    'INVALID_CONTRACT',
    `${path} is not a JSON object (${issue.message}); fix or remove it before running the loop.`,
    { issues: [issue] },
  );
}

/** Refused on first read, before a stage spends money: JSON.stringify would overflow rewriting it. */
const MAX_METRICS_DEPTH = 1000;

// At the document root, else a deep field under stage_status would read as one stage's bad status.
function tooDeep(document: object, path: string): GoalLoopError | null {
  const deep = pathBeyondDepth(document, MAX_METRICS_DEPTH);
  if (deep === null) return null;
  const field = formatJsonPath(deep.slice(0, 1));
  const message = `its field ${field} nests more than ${MAX_METRICS_DEPTH} levels deep, deeper than the loop can rewrite it with the run's spend`;
  return new GoalLoopError('INVALID_CONTRACT', `${path}: ${message}; fix or remove it before running the loop.`, {
    issues: [{ code: 'too_deep', path: [], message }],
  });
}
