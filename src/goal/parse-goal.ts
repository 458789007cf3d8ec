// The goal contract, then each inline schema compiled as the evaluation compiles it: a goal it accepts can be evaluated.
import { type Issue, type ParseResult, parseJsonText } from '../errors.js';
import { readWhole } from '../kit/json-value.js';
import { JsonSchemaChecker } from '../runtime/json-schema-check.js';
import type { Goal } from './contracts/goal.js';
import { type ParseGoalOptions, parseGoalStructure } from './contracts/parse-goal.js';

// Compiled validators (and compile errors) are kept by schema content, so parsing the same goal again compiles nothing.
const inlineSchemas = new JsonSchemaChecker();

/**
 * Parses a goal definition strictly, as a loop reads it: every issue with its JSON path (an unknown key with the
 * key it most likely misspells, an inline `json_schema` that does not compile). `input` is the goal's value or the
 * text of a goal.json. Never throws on input; a wrong option is `INVALID_OPTIONS`.
 *
 * @example
 * ```ts
 * import { formatIssue } from 'goal-loop/contracts';
 *
 * const result = parseGoal(await readFile('goal.json', 'utf8'), { stages: ['03-documentation'] });
 * if (!result.success) console.error(result.issues.map(formatIssue).join('\n'));
 * ```
 * @public
 */
export function parseGoal(input: unknown, options: ParseGoalOptions = {}): ParseResult<Goal> {
  if (typeof input !== 'string') return parseGoalCopy(input, options);
  const json = parseJsonText(input);
  // The text is read once: a goal.json holding a JSON string is a string, not a goal (the options still checked).
  if (json.ok) return parseGoalValue(json.value, options);
  parseGoalStructure(null, options);
  return { success: false, issues: [json.issue] };
}

/** {@link parseGoal} on a value, read once into a JSON copy so nothing read afterwards can throw. @internal */
export function parseGoalCopy(input: unknown, options: ParseGoalOptions): ParseResult<Goal> {
  const read = readWhole(input);
  if (read.ok) return parseGoalValue(read.value, options);
  parseGoalStructure(null, options);
  const issue =
    read.kind === 'threw'
      ? { code: 'unreadable', path: [], message: `reading the goal threw (${read.reason})` }
      : { code: 'invalid_type', path: [...read.path], message: `${read.what} is not JSON` };
  return { success: false, issues: [issue] };
}

/** {@link parseGoal} on a goal's value (a string is not a goal): the contract, then each inline schema compiled. @internal */
export function parseGoalValue(input: unknown, options: ParseGoalOptions): ParseResult<Goal> {
  const parsed = parseGoalStructure(input, options);
  // Checked on the raw input as the loop does, so a schema is reported even when another field is wrong.
  const issues = [...parsed.issues, ...inlineSchemaIssues(input)];
  return parsed.success && issues.length === 0 ? parsed : { success: false, issues };
}

// An issue at `criteria.<i>.schema` for each json_schema criterion whose inline schema does not compile.
function inlineSchemaIssues(input: unknown): Issue[] {
  const criteria = typeof input === 'object' && input !== null ? (input as { criteria?: unknown }).criteria : undefined;
  if (!Array.isArray(criteria)) return [];
  const issues: Issue[] = [];
  criteria.forEach((criterion: unknown, index) => {
    if (typeof criterion !== 'object' || criterion === null) return;
    const { kind, id, schema } = criterion as { kind?: unknown; id?: unknown; schema?: unknown };
    if (kind !== 'json_schema' || schema === undefined) return;
    // A schema of the wrong type is already an issue of the goal contract.
    if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) return;
    const error = inlineSchemas.compileError(schema);
    if (error === undefined) return;
    const name = typeof id === 'string' && id !== '' ? `criterion ${id}` : `criterion ${index}`;
    issues.push({ code: 'invalid_schema', path: ['criteria', index, 'schema'], message: `${name}: ${error}` });
  });
  return issues;
}
