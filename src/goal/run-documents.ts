import { GoalLoopError, parseJsonText } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { type FeedbackRead, readFeedbackView } from './contracts/feedback-view.js';
import { parseVerdictFile } from './contracts/verdict.js';
import type { DocumentFact, ExplicitVerdictsFact, PathFact } from './core/facts.js';

// The documents an evaluation reads as JSON: a criterion's document, feedback.json, goal-verdict.json.

/** Reads a contained path as a JSON document. @internal */
export async function readJsonDocument(fs: FileSystem, path: PathFact): Promise<DocumentFact> {
  if (path.state === 'refused')
    return path.reason === undefined
      ? { state: 'refused', detail: path.detail }
      : { state: 'refused', detail: path.detail, reason: path.reason };
  if (path.state === 'missing') return { state: 'missing', detail: `${path.path} does not exist` };
  if (path.type !== 'file') return { state: 'malformed', detail: `${path.path} is not a regular file` };
  const text = await fs.readText(path.path);
  if (text === null) return { state: 'missing', detail: `${path.path} does not exist` };
  const json = parseJsonText(text);
  return json.ok
    ? { state: 'present', document: json.value }
    : { state: 'malformed', detail: `${path.path}: ${json.issue.message}` };
}

/** Reads feedback.json (canonical path, then the legacy copy) as the loop's view and as a metric document. @internal */
export async function readFeedback(
  fs: FileSystem,
  candidates: readonly string[],
): Promise<{ read: FeedbackRead; document: DocumentFact }> {
  for (const path of candidates) {
    const text = await fs.readText(path);
    if (text === null) continue;
    const json = parseJsonText(text);
    if (!json.ok)
      return {
        read: { state: 'malformed', issues: [json.issue] },
        document: { state: 'malformed', detail: `${path}: ${json.issue.message}` },
      };
    return { read: readFeedbackView(json.value), document: { state: 'present', document: json.value } };
  }
  return {
    read: { state: 'missing' },
    document: { state: 'missing', detail: `${candidates[0] ?? 'feedback.json'} does not exist` },
  };
}

/** Reads goal-verdict.json into the explicit verdict pool (the pure evaluation judges its stages and stamps, and says why it rejects one). @internal */
export async function readVerdicts(fs: FileSystem, path: string): Promise<ExplicitVerdictsFact> {
  let text: string | null;
  try {
    text = await fs.readText(path);
  } catch (error) {
    // A file that cannot be read (a FIFO, a directory, bytes that are not UTF-8) is reported and ignored, as a
    // malformed one is: its judges stay pending, the rest of the evaluation goes on.
    if (!(error instanceof GoalLoopError && error.code === 'IO_ERROR')) throw error;
    return { state: 'present', verdicts: [], issues: [{ code: 'unreadable', path: [], message: error.message }] };
  }
  if (text === null) return { state: 'missing' };
  const json = parseJsonText(text);
  if (!json.ok) return { state: 'present', verdicts: [], issues: [json.issue] };
  const parsed = parseVerdictFile(json.value);
  return { state: 'present', verdicts: parsed.verdicts, issues: parsed.issues };
}
