import { parseJsonText } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { readTextOrRefusal } from '../runtime/contained-read.js';
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
  if (path.type !== 'file') {
    const what = path.type === 'directory' ? 'a directory' : 'a FIFO, socket or device';
    return { state: 'malformed', detail: `${path.path} is ${what}, not a regular file` };
  }
  const text = await readTextOrRefusal(fs, path.path);
  if (text === null) return { state: 'missing', detail: `${path.path} does not exist` };
  if (typeof text !== 'string') return { state: 'malformed', detail: text.message };
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
    const text = await readTextOrRefusal(fs, path);
    if (text === null) continue;
    if (typeof text !== 'string')
      return {
        read: { state: 'malformed', issues: [{ code: 'unreadable', path: [], message: text.message }] },
        document: { state: 'malformed', detail: text.message },
      };
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
  const text = await readTextOrRefusal(fs, path);
  if (text === null) return { state: 'missing' };
  // A file that cannot be read is reported and ignored, as a malformed one is: its judges stay pending.
  if (typeof text !== 'string')
    return { state: 'present', verdicts: [], issues: [{ code: 'unreadable', path: [], message: text.message }] };
  const json = parseJsonText(text);
  if (!json.ok) return { state: 'present', verdicts: [], issues: [json.issue] };
  const parsed = parseVerdictFile(json.value);
  return { state: 'present', verdicts: parsed.verdicts, issues: parsed.issues };
}
