// The goal and the prompt the AI SDK recipe runs: one stage writes requirement_spec.json, which must list at least
// one requirement (a json_schema criterion that reruns the stage).
import type { GoalInput } from 'goal-loop';

/** Where the stage writes its artifact, relative to the run directory. */
export const SPEC_FILE = 'artifacts/stages/02-requirements/requirement_spec.json';

/** The goal: the spec validates against a schema wanting one requirement or more. */
export const requirementsGoal: GoalInput = {
  schema_version: 1,
  goal_id: 'spec-has-requirements',
  criteria: [
    {
      id: 'spec-valid',
      kind: 'json_schema',
      run_relative: true,
      path: SPEC_FILE,
      schema: { type: 'object', required: ['requirements'], properties: { requirements: { minItems: 1 } } },
      rerun_stages: ['02-requirements'],
    },
  ],
};

/** The stage's prompt and the file its answer goes to. */
export const requirementsPrompts = {
  '02-requirements': { prompt: 'Write the requirements of a sign-in page as JSON.', file: 'requirement_spec.json' },
};

/** What the recipe's model costs: USD per million input and output tokens. */
export const pricing = { input: 3, output: 15 };
