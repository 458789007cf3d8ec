import { formatJsonPath, GoalLoopError, parseJsonText } from '../errors.js';
import { pathBeyondDepth } from '../kit/json-depth.js';
import type { FileSystem } from '../ports/file-system.js';
import { readDocumentText } from '../runtime/contained-read.js';
import { readMetricValue } from './core/metric.js';

// What to do about a metrics.json the loop refuses.
const METRICS_ADVICE = 'fix it before running the loop, so its budget is checked against the real spend.';

/**
 * Reads `cumulative_cost_usd` from metrics.json: 0 when the file or the field
 * is absent; a number or a numeric string otherwise. Any other value is
 * `INVALID_CONTRACT` — a budget is never checked against a spend it could not
 * read, and the file is not overwritten.
 *
 * @internal
 */
export async function readRecordedSpend(fs: FileSystem, path: string): Promise<number> {
  const metrics = metricsOf(await readDocumentText(fs, path, METRICS_ADVICE), path);
  if (metrics instanceof GoalLoopError) throw metrics;
  const spent = recordedSpendOf(metrics, path);
  if (spent instanceof GoalLoopError) throw spent;
  return spent;
}

/**
 * The spend metrics.json records (0 when the field is absent), or the `INVALID_CONTRACT` error the loop refuses the
 * file with, its issue at `cumulative_cost_usd`. For the readers that report the file instead of refusing it (an
 * evaluation, a status) as much as for the loop. Pure.
 *
 * @internal
 */
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

/**
 * Raises the run's spend in metrics.json to `spentUsd`, keeping every other
 * field; a spend already recorded there at or above it is left as it is (the
 * loop only ever adds to the spend, never writes a lower figure).
 *
 * @internal
 */
export async function raiseRecordedSpend(fs: FileSystem, path: string, spentUsd: number): Promise<void> {
  const recorded = await readRecordedSpend(fs, path);
  // Spend is kept to a billionth of a dollar (kit/usd.ts): half of one is float noise, a whole one is spend.
  if (recorded >= spentUsd - 5e-10) return;
  const metrics = await readMetrics(fs, path);
  // metricsOf refused a file nested too deep for JSON.stringify, so this cannot overflow the stack.
  const text = `${JSON.stringify({ ...metrics, cumulative_cost_usd: spentUsd }, null, 2)}\n`;
  await fs.writeText(path, text);
}

// Reads metrics.json as an object ({} when missing); a file that is not a JSON object, or is nested too deep to
// rewrite, is INVALID_CONTRACT, never overwritten.
async function readMetrics(fs: FileSystem, path: string): Promise<Record<string, unknown>> {
  const metrics = metricsOf(await readDocumentText(fs, path, METRICS_ADVICE), path);
  if (metrics instanceof GoalLoopError) throw metrics;
  return metrics;
}

/**
 * metrics.json's text as an object (`{}` when the file is absent, `text` null), or the `INVALID_CONTRACT` error the
 * loop refuses a text that is not one, or one nested too deep to rewrite, with (its issue at the document root). Pure.
 *
 * @internal
 */
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

/**
 * Deeper than this metrics.json is refused: the loop rewrites the file with the run's spend after a stage, and
 * JSON.stringify recurses, overflowing the call stack a few thousand levels down. Refused on the first read, before
 * any stage, rather than after a stage has spent money the file can then never record.
 */
const MAX_METRICS_DEPTH = 1000;

// The refusal of a metrics.json nested deeper than the loop can rewrite, at the document root (a field under
// stage_status would otherwise read as one stage's unreadable status), the deep field named in the message.
function tooDeep(document: object, path: string): GoalLoopError | null {
  const deep = pathBeyondDepth(document, MAX_METRICS_DEPTH);
  if (deep === null) return null;
  const field = formatJsonPath(deep.slice(0, 1));
  const message = `its field ${field} nests more than ${MAX_METRICS_DEPTH} levels deep, deeper than the loop can rewrite it with the run's spend`;
  return new GoalLoopError('INVALID_CONTRACT', `${path}: ${message}; fix or remove it before running the loop.`, {
    issues: [{ code: 'too_deep', path: [], message }],
  });
}
