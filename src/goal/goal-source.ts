import type { GoalLoopError, Issue } from '../errors.js';
import { parseJsonText } from '../errors.js';
import { fnv1a64, hashJson } from '../kit/hash.js';
import type { FileSystem } from '../ports/file-system.js';
import { DEFAULT_GOAL, type Goal } from './contracts/goal.js';
import { parseGoalCopy, parseGoalValue } from './parse-goal.js';

/** The goal as loaded: valid with its canonical hash, or invalid with every issue. @internal */
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

/** Loads the `goal` option, else `<runDir>/goal.json`, else the default goal (built-in checks only). @internal */
export async function loadGoal(
  fs: FileSystem,
  goalPath: string,
  option: unknown,
  stages?: readonly string[],
): Promise<LoadedGoal> {
  if (option !== undefined) return fromValue(option, stages, 'option');
  return loadGoalText(await fs.readText(goalPath), stages);
}

/** Loads a goal from goal.json's text (`null`: the default goal). @internal */
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

/** The goal of a goal.json that could not be read: invalid, one `unreadable` issue at `$`. @internal */
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

// Parses a goal value as parseGoal does (inline JSON Schemas must compile; a string is not a goal) and hashes its
// canonical form.
function fromValue(value: unknown, stages: readonly string[] | undefined, origin: 'option' | 'file'): LoadedGoal {
  const options = stages === undefined ? {} : { stages };
  // A goal from code is read as parseGoal reads it (a copy, as JSON holds it); goal.json's value already is JSON.
  const parsed = origin === 'option' ? parseGoalCopy(value, options) : parseGoalValue(value, options);
  if (parsed.success)
    return { ok: true, goal: parsed.data, goalId: parsed.data.goal_id, hash: hashJson(parsed.data), origin };
  return { ok: false, goalId: rawGoalId(value), hash: hashJson(value), issues: parsed.issues, origin };
}

// The goal_id written in an invalid goal, when it is a usable string.
function rawGoalId(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'goal_id' in value) {
    const id = (value as { goal_id: unknown }).goal_id;
    if (typeof id === 'string' && id.trim() !== '') return id;
  }
  return DEFAULT_GOAL.goal_id;
}
