import { GoalLoopError, type Issue, isInvalidUtf8Error } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { metricsOf, recordedSpendOf } from './spend.js';

/** metrics.json as a status reads it: what the loop would refuse it for, reported instead. @internal */
export interface MetricsReading {
  /** The parsed file when it is a JSON object, else `null` (absent, unreadable, or not an object). */
  readonly document: Readonly<Record<string, unknown>> | null;
  /** The spend it records (0 when the file or the field is absent), or `null` when it cannot be read. */
  readonly spentUsd: number | null;
  /** What `run()` refuses the file for, each at its JSON path. */
  readonly issues: readonly Issue[];
}

// An issue of metrics.json as a reader reports it: the path in the file, the file named in the message.
function named(issue: Issue): Issue {
  return { ...issue, message: `metrics.json: ${issue.message}` };
}

/** Reads metrics.json with the loop's checks, returning their issues instead of throwing. @internal */
export async function readMetricsReading(fs: FileSystem, path: string): Promise<MetricsReading> {
  let text: string | null;
  try {
    text = await fs.readText(path);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
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
