import type { GoalLoopError, Issue } from '../errors.js';
import { parseJsonText } from '../errors.js';
import { fnv1a64, hashJson } from '../kit/hash.js';
import { JsonSchemaChecker } from '../persist/json-schema-check.js';
import type { FileSystem } from '../ports/file-system.js';
import { DEFAULT_GOAL, type Goal } from './contracts/goal.js';
import { parseGoal } from './contracts/parse-goal.js';

/**
 * The goal a loop works towards, as loaded: valid (with the hash of its
 * canonical form), or invalid with every issue. `goalId` is never empty.
 *
 * @internal
 */
export type LoadedGoal =
  | {
      readonly ok: true;
      readonly goal: Goal;
      readonly goalId: string;
      readonly hash: string;
      readonly origin: 'option' | 'file' | 'default';
    }
  | {
      readonly ok: false;
      readonly goalId: string;
      readonly hash: string;
      readonly issues: readonly Issue[];
      readonly origin: 'option' | 'file';
    };

/**
 * Loads the goal: the `goal` option when given, else `<runDir>/goal.json`,
 * else the default goal (built-in checks only). Parsing is strict; without
 * `stages`, `rerun_stages` entries are not checked against a pipeline.
 *
 * @internal
 */
export async function loadGoal(
  fs: FileSystem,
  goalPath: string,
  option: unknown,
  stages?: readonly string[],
): Promise<LoadedGoal> {
  if (option !== undefined) return fromValue(option, stages, 'option');
  return loadGoalText(await fs.readText(goalPath), stages);
}

/**
 * Loads a goal from the text of goal.json (`null`: no file, the default goal).
 * Without `stages`, `rerun_stages` entries are not checked against a pipeline.
 *
 * @internal
 */
export function loadGoalText(text: string | null, stages?: readonly string[]): LoadedGoal {
  if (text === null)
    return {
      ok: true,
      goal: DEFAULT_GOAL,
      goalId: DEFAULT_GOAL.goal_id,
      hash: hashJson(DEFAULT_GOAL),
      origin: 'default',
    };
  const json = parseJsonText(text);
  if (!json.ok)
    return { ok: false, goalId: DEFAULT_GOAL.goal_id, hash: fnv1a64(text), issues: [json.issue], origin: 'file' };
  return fromValue(json.value, stages, 'file');
}

/**
 * The goal of a goal.json whose read failed with `error` (an `IO_ERROR` naming the file and why): invalid, with one
 * `unreadable` issue at the document root, so the loop stops `evaluation_error` as on a malformed file. Pure.
 *
 * @internal
 */
export function unreadableGoal(error: GoalLoopError): LoadedGoal {
  const message = `goal.json cannot be read: ${error.message}`;
  return {
    ok: false,
    goalId: DEFAULT_GOAL.goal_id,
    hash: fnv1a64(message),
    issues: [{ code: 'unreadable', path: [], message }],
    origin: 'file',
  };
}

// Inline json_schema schemas are compiled when a goal is loaded; the compiled validators are kept by content.
const inlineSchemas = new JsonSchemaChecker();

// Parses a goal value (inline JSON Schemas must compile) and hashes its canonical form.
function fromValue(value: unknown, stages: readonly string[] | undefined, origin: 'option' | 'file'): LoadedGoal {
  const parsed = parseGoal(value, stages === undefined ? {} : { stages });
  const issues = [...parsed.issues, ...inlineSchemaIssues(value)];
  if (parsed.success && issues.length === 0)
    return { ok: true, goal: parsed.data, goalId: parsed.data.goal_id, hash: hashJson(parsed.data), origin };
  return { ok: false, goalId: rawGoalId(value), hash: hashJson(value), issues, origin };
}

// An issue at `criteria.<i>.schema` for each json_schema criterion whose inline schema does not compile.
function inlineSchemaIssues(value: unknown): Issue[] {
  const criteria = typeof value === 'object' && value !== null ? (value as { criteria?: unknown }).criteria : undefined;
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

// The goal_id written in an invalid goal, when it is a usable string.
function rawGoalId(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'goal_id' in value) {
    const id = (value as { goal_id: unknown }).goal_id;
    if (typeof id === 'string' && id.trim() !== '') return id;
  }
  return DEFAULT_GOAL.goal_id;
}
