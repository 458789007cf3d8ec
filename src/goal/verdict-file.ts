// The goal-verdict.json writeVerdict writes: what the file holds, with one more verdict, or the refusal to touch it.
import { formatJsonPath, GoalLoopError, parseJsonText } from '../errors.js';
import { pathBeyondDepth } from '../kit/json-depth.js';
import type { FileSystem } from '../ports/file-system.js';
import { readDocumentText } from '../runtime/contained-read.js';
import type { Verdict } from './contracts/verdict.js';

// Deeper than this goal-verdict.json is left untouched: writeVerdict rewrites the whole file, and JSON.stringify
// recurses, overflowing the call stack a few thousand levels down (the loop itself reads such an entry as malformed).
const MAX_VERDICT_FILE_DEPTH = 1000;

/** goal-verdict.json with `verdict` appended, what it held kept; a file the loop cannot read is `INVALID_CONTRACT`. @internal */
export async function withVerdict(fs: FileSystem, path: string, verdict: Verdict): Promise<Record<string, unknown>> {
  const text = await readDocumentText(fs, path, 'fix or remove it first.');
  if (text === null) return { verdicts: [verdict] };
  const json = parseJsonText(text);
  if (!json.ok) {
    throw new GoalLoopError('INVALID_CONTRACT', `${path} is not valid JSON; fix or remove it first.`, {
      issues: [json.issue],
    });
  }
  const value = json.value;
  const deep = pathBeyondDepth(value, MAX_VERDICT_FILE_DEPTH);
  if (deep !== null) throw tooDeep(path, deep);
  if (Array.isArray(value)) return { verdicts: [...value, verdict] };
  // What the loop reads as no verdicts at all (a bare value, a `verdicts` that is not a list) is not made readable by
  // adding one: it stays as it is, for its writer to fix.
  const wrong =
    typeof value !== 'object' || value === null
      ? { path: [], message: 'expected a verdict object, an array of verdicts, or { "verdicts": [...] }' }
      : 'verdicts' in value && !Array.isArray(value.verdicts)
        ? { path: ['verdicts'], message: 'expected an array of verdicts' }
        : null;
  if (wrong !== null)
    throw new GoalLoopError(
      'INVALID_CONTRACT',
      `${path} holds no verdicts the loop can read; fix or remove it first.`,
      {
        issues: [{ code: 'invalid_type', ...wrong }],
      },
    );
  const file = value as Record<string, unknown>;
  return Array.isArray(file.verdicts)
    ? { ...file, verdicts: [...file.verdicts, verdict] }
    : { verdicts: [file, verdict] };
}

// The refusal of a file nested deeper than writeVerdict can rewrite: the message names the entry (or key) that nests
// too deep, the issue's path goes all the way down.
function tooDeep(path: string, deep: (string | number)[]): GoalLoopError {
  const message = `nests more than ${MAX_VERDICT_FILE_DEPTH} levels deep, deeper than writeVerdict can rewrite the file`;
  const entry = formatJsonPath(deep.slice(0, deep[0] === 'verdicts' ? 2 : 1));
  return new GoalLoopError('INVALID_CONTRACT', `${path}: ${entry} ${message}; fix or remove it first.`, {
    issues: [{ code: 'too_deep', path: deep, message }],
  });
}
