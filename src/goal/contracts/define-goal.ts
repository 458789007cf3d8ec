import type { GoalInput } from './goal.js';

/** A type with every array and object made readonly, down to the leaves. @public */
export type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [Key in keyof T]: DeepReadonly<T[Key]> }
    : T;
/** A goal as a host writes it in code: {@link GoalInput} with every array and object readonly, so an `as const` literal fits too. @public */
export type GoalDefinition = DeepReadonly<GoalInput>;

/**
 * Types a goal written in code: the literal is checked against the goal contract where it is written (`schema_version`
 * is `1`, not `number`; each criterion's fields follow its `kind`), `as const` literals with readonly arrays are
 * accepted, and the result is a {@link GoalInput} that a variable can hold and pass to `new GoalLoop({ goal })` without
 * `satisfies`, its `criteria` typed as present (`goal.criteria.length` needs no `?.`).
 *
 * @example
 * ```ts
 * import { defineGoal, GoalLoop } from 'goal-loop';
 *
 * const goal = defineGoal({
 *   schema_version: 1,
 *   goal_id: 'docs-ready',
 *   criteria: [
 *     { id: 'readme', kind: 'file_exists', path: 'README.md' },
 *     { id: 'docs-lint', kind: 'command', command: 'npm run docs:check', rerun_stages: ['03-documentation'] },
 *   ],
 * });
 * const loop = new GoalLoop({ fs, runDir, stages: ['03-documentation'], runner, commands, goal });
 * ```
 *
 * @public
 */
export function defineGoal(goal: GoalDefinition): GoalInput & Required<Pick<GoalInput, 'criteria'>> {
  const typed = goal as GoalInput & Required<Pick<GoalInput, 'criteria'>>;
  return typed.criteria === undefined ? { ...typed, criteria: [] } : typed;
}
