// goal.json's unknown keys as issues at each key's own path, naming the known key it most likely misspells (zod
// reports them together at the object's path, with no hint), and an unknown criterion kind naming the kind it most
// likely misspells (zod names only the kinds it expected).
import type { z } from 'zod';
import { type Issue, issuesFromZod } from '../../errors.js';
import { closestKey, unknownKeyIssuesAt } from '../../kit/unknown-keys.js';
import { criterionSchema, goalSchema } from './goal.js';

const GOAL_KEYS = Object.keys(goalSchema.shape);
const CRITERION_KEYS = new Map<unknown, readonly string[]>(
  criterionSchema.options.map((option) => [option.shape.kind.value, Object.keys(option.shape)]),
);
const KINDS = [...CRITERION_KEYS.keys()].map(String);

/** The issues of a failed goal parse, in zod's order, with one issue per unknown key at its own path. @internal */
export function goalSchemaIssues(error: z.ZodError, input: unknown): Issue[] {
  const converted = issuesFromZod(error);
  return error.issues.flatMap((issue, index) => {
    const own = converted[index];
    if (own === undefined) return [];
    if (issue.code === 'invalid_union' && issue.discriminator === 'kind') return [kindIssue(input, own.path)];
    if (issue.code !== 'unrecognized_keys') return [own];
    return unknownKeyIssuesAt(issue.keys, own.path, knownKeysAt(input, own.path));
  });
}

// The issue of a criterion kind that is none of the kinds (at `path`, `criteria.<i>.kind`), with the kind it most likely misspells.
function kindIssue(input: unknown, path: readonly (string | number)[]): Issue {
  const kinds = `the kinds are ${KINDS.join(', ')}`;
  const index = path[1];
  const kind = typeof index === 'number' ? criterionAt(input, index)?.kind : undefined;
  if (typeof kind !== 'string') {
    const message = `kind ${kind === undefined ? 'is missing' : 'must be a string'}; ${kinds}`;
    return { code: 'invalid_type', path, message };
  }
  const suggestion = closestKey(kind, KINDS);
  const hint = suggestion === undefined ? '' : `; did you mean \`${suggestion}\`?`;
  return { code: 'unknown_kind', path, message: `unknown kind ${JSON.stringify(kind)}${hint} (${kinds})` };
}

// The keys the goal contract knows for the object at `path`: the goal itself, or a criterion of a known kind.
function knownKeysAt(input: unknown, path: readonly (string | number)[]): readonly string[] {
  if (path.length === 0) return GOAL_KEYS;
  const [field, index] = path;
  if (path.length !== 2 || field !== 'criteria' || typeof index !== 'number') return [];
  return CRITERION_KEYS.get(criterionAt(input, index)?.kind) ?? [];
}

// The raw criterion at `criteria[index]`, when it is an object.
function criterionAt(input: unknown, index: number): { readonly kind?: unknown } | undefined {
  const criteria = (input as { criteria?: unknown }).criteria;
  const criterion: unknown = Array.isArray(criteria) ? criteria[index] : undefined;
  return typeof criterion === 'object' && criterion !== null ? criterion : undefined;
}
