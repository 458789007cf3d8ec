import { GoalLoopError, type Issue, isInvalidUtf8Error } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { metricsOf, recordedSpendOf } from './spend.js';

/**
 * metrics.json as an evaluation or a status reads it: never refused, every problem the loop would refuse the file
 * for reported instead.
 *
 * @internal
 */
export interface MetricsReading {
  /** The parsed file when it is a JSON object, else `null` (absent, unreadable, or not an object). */
  readonly document: Readonly<Record<string, unknown>> | null;
  /** The spend it records (0 when the file or the field is absent), or `null` when it cannot be read. */
  readonly spentUsd: number | null;
  /**
   * What `run()` refuses the file for (not a JSON object, nested too deep to rewrite, a `cumulative_cost_usd` that is
   * not a number ≥ 0, a read that failed), each at its JSON path in the file, its message naming metrics.json.
   */
  readonly issues: readonly Issue[];
}

// An issue of metrics.json as a reader reports it: the path in the file, the file named in the message.
function named(issue: Issue): Issue {
  return { ...issue, message: `metrics.json: ${issue.message}` };
}

/**
 * Reads the run's metrics.json at `path` for a report: the same checks as the loop's, which throws
 * `INVALID_CONTRACT` (or `IO_ERROR`) on a file that fails them, returned as issues. Never throws.
 *
 * @internal
 */
export async function readMetricsReading(fs: FileSystem, path: string): Promise<MetricsReading> {
  let text: string | null;
  try {
    text = await fs.readText(path);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    // Bytes that are not UTF-8 are the file's fault, as run() reports them (invalid_utf8); anything else unreadable.
    const code = isInvalidUtf8Error(error) ? 'invalid_utf8' : 'unreadable';
    return { document: null, spentUsd: null, issues: [named({ code, path: [], message: why })] };
  }
  const document = metricsOf(text, path);
  if (document instanceof GoalLoopError) return { document: null, spentUsd: null, issues: document.issues.map(named) };
  const spent = recordedSpendOf(document, path);
  return spent instanceof GoalLoopError
    ? { document, spentUsd: null, issues: spent.issues.map(named) }
    : { document, spentUsd: spent, issues: [] };
}
