import fc from 'fast-check';
import type { CriterionFact } from '../../../src/goal/core/facts.js';

// Arbitraries of the criteria of a goal and of the facts gathered for them, for the evaluateGoal properties.

/** The paths criteria and evidence name (`constructor` among them: no prototype key may leak in). */
export const PATHS = ['a.json', 'b.json', 'c.json', 'constructor'];
/** The criterion ids a generated goal draws from. */
export const IDS = ['a', 'b', 'c', 'd', 'e', 'constructor'];

/** A raw criterion of any kind with the given id, naming rerun stages from the pipeline. */
export const rawCriterion = (id: string, stages: readonly string[]) => {
  const rerun_stages = fc.subarray([...stages]);
  return fc.oneof(
    fc.record({ id: fc.constant(id), kind: fc.constant('file_exists'), path: fc.constantFrom(...PATHS), rerun_stages }),
    fc.record({
      id: fc.constant(id),
      kind: fc.constant('command'),
      command: fc.constant('true'),
      expect_exit_code: fc.integer({ min: 0, max: 2 }),
      rerun_stages,
    }),
    fc.record({
      id: fc.constant(id),
      kind: fc.constant('metric_threshold'),
      source: fc.constantFrom('feedback', 'loop_state'),
      metric: fc.constantFrom('x', 'summary.critical_count', 'a.0'),
      operator: fc.constantFrom('>=', '>', '<=', '<', '==', '!='),
      value: fc.integer({ min: -2, max: 100 }),
      rerun_stages,
    }),
    fc.record({ id: fc.constant(id), kind: fc.constant('judge'), question: fc.constant('ok?'), rerun_stages }),
    fc.record({
      id: fc.constant(id),
      kind: fc.constant('json_schema'),
      path: fc.constantFrom(...PATHS),
      schema: fc.constant({}),
      rerun_stages,
    }),
  );
};

/** A fact of any kind (sometimes not matching the criterion). */
export const anyFact: fc.Arbitrary<CriterionFact> = fc.oneof(
  fc.record({
    kind: fc.constant('file_exists' as const),
    path: fc.oneof(
      fc.constant({ state: 'missing' as const, path: 'x' }),
      fc.constant({ state: 'refused' as const, detail: 'out' }),
      fc.record({
        state: fc.constant('present' as const),
        path: fc.constant('x'),
        type: fc.constantFrom('file' as const, 'directory' as const, 'other' as const),
      }),
    ),
  }),
  fc.record({
    kind: fc.constant('command' as const),
    outcome: fc.oneof(
      fc.constant({ state: 'skipped' as const, detail: 'skip' }),
      fc.record({
        state: fc.constant('ran' as const),
        result: fc.record({
          exitCode: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
          timedOut: fc.boolean(),
          aborted: fc.boolean(),
          durationMs: fc.nat(),
          stdoutTail: fc.string(),
          stderrTail: fc.string(),
        }),
      }),
    ),
  }),
  fc.record({
    kind: fc.constant('metric_threshold' as const),
    source: fc.oneof(
      fc.constant({ state: 'missing' as const, detail: '' }),
      fc.record({ state: fc.constant('present' as const), document: fc.jsonValue() }),
    ),
  }),
  fc.constant({ kind: 'judge' as const }),
  fc.record({
    kind: fc.constant('json_schema' as const),
    outcome: fc.oneof(
      fc.constant({ state: 'unavailable' as const, detail: 'no' }),
      fc.record({
        state: fc.constant('checked' as const),
        valid: fc.boolean(),
        errors: fc.array(fc.string(), { maxLength: 4 }),
      }),
    ),
  }),
);
