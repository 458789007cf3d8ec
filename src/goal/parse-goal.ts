// The public goal parser: the pure parser of the goal contract, then each inline json_schema schema compiled as the
// evaluation compiles it (the same JsonSchemaChecker: dialects, patterns on RE2), so a goal it accepts is one the loop
// can evaluate. The loop loads every goal through it.
import { type Issue, type ParseResult, parseJsonText } from '../errors.js';
import { readWhole } from '../kit/json-value.js';
import { JsonSchemaChecker } from '../runtime/json-schema-check.js';
import type { Goal } from './contracts/goal.js';
import { type ParseGoalOptions, parseGoalStructure } from './contracts/parse-goal.js';

// Compiled validators (and compile errors) are kept by schema content, so parsing the same goal again compiles nothing.
const inlineSchemas = new JsonSchemaChecker();

/**
 * Parses a goal definition strictly, as a loop reads it: an unknown kind or
 * operator, a missing field, an unknown stage in `rerun_stages`, a duplicate
 * criterion id or an inline `json_schema`
 * schema that does not compile (in the dialect its `$schema` names, a
 * `pattern` with a backreference or a lookaround included) is an issue with its
 * JSON path (`$.criteria[0].schema`, with the compile error); an unknown key
 * is one at the key's own path, with the known key it most likely
 * misspells. Returns every issue; a goal it accepts never stops a loop with
 * `evaluation_error` for its own sake (a `schema_path` schema is read, and
 * checked, only when evaluating). `input` is the goal's value, or the text
 * of a goal.json (a string is read as JSON: text that is not JSON is one
 * issue at `$` naming where it breaks, as the loop reports goal.json).
 * Never throws on input: the value is read once, as JSON holds it, so a
 * value whose reading throws (a throwing getter, a revoked proxy) is one
 * `unreadable` issue at `$` and one that holds what JSON cannot (a Map, a
 * Date, a class instance) one issue at that path; an unknown option key or a
 * wrong option is `INVALID_OPTIONS`.
 *
 * @example
 * ```ts
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

/**
 * {@link parseGoal} on a value (not text), read once into a copy as JSON holds it: a value whose reading throws (a
 * throwing getter, a revoked proxy) or that holds what JSON cannot (a Map, a Date, a class instance) is refused at
 * its path, and nothing the parser reads afterwards can throw. A string is not a goal. @internal
 */
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
