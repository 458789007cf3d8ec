// goal.json's unknown keys as issues at each key's own path, naming the known key it most likely misspells (zod
// reports them together at the object's path, with no hint).
import type { z } from 'zod';
import { type Issue, issuesFromZod } from '../../errors.js';
import { closestKey } from '../../kit/unknown-keys.js';
import { criterionSchema, goalSchema } from './goal.js';

const GOAL_KEYS = Object.keys(goalSchema.shape);
const CRITERION_KEYS = new Map<unknown, readonly string[]>(
  criterionSchema.options.map((option) => [option.shape.kind.value, Object.keys(option.shape)]),
);

/**
 * The issues of a failed goal parse, in zod's order, each unknown key (zod's
 * `unrecognized_keys`, one issue for all the keys of an object) split into
 * one issue per key at the key's path (`$.criteria[5].rerun_stage`), with
 * "did you mean `rerun_stages`?" when a key of that object is close: the
 * goal's keys at the top, the keys of the criterion's kind in a criterion.
 * Reads the raw input for a criterion's kind. Pure.
 *
 * @internal
 */
export function goalSchemaIssues(error: z.ZodError, input: unknown): Issue[] {
  const converted = issuesFromZod(error);
  return error.issues.flatMap((issue, index) => {
    const own = converted[index];
    if (own === undefined) return [];
    if (issue.code !== 'unrecognized_keys') return [own];
    const known = knownKeysAt(input, own.path);
    return issue.keys.map((key) => {
      const suggestion = closestKey(key, known);
      const hint = suggestion === undefined ? '' : `; did you mean \`${suggestion}\`?`;
      return { code: 'unrecognized_keys', path: [...own.path, key], message: `unknown key \`${key}\`${hint}` };
    });
  });
}

// The keys the goal contract knows for the object at `path`: the goal itself, or a criterion of a known kind.
function knownKeysAt(input: unknown, path: readonly (string | number)[]): readonly string[] {
  if (path.length === 0) return GOAL_KEYS;
  const [field, index] = path;
  if (path.length !== 2 || field !== 'criteria' || typeof index !== 'number') return [];
  const criteria = (input as { criteria?: unknown }).criteria;
  const criterion: unknown = Array.isArray(criteria) ? criteria[index] : undefined;
  const kind = typeof criterion === 'object' && criterion !== null ? (criterion as { kind?: unknown }).kind : undefined;
  return CRITERION_KEYS.get(kind) ?? [];
}
