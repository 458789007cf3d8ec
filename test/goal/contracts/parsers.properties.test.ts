import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFeedbackView } from '../../../src/goal/contracts/feedback-view.js';
import { parseGoalStructure as parseGoal } from '../../../src/goal/contracts/parse-goal.js';
import { parseVerdictFile } from '../../../src/goal/contracts/verdict.js';

// The contract parsers never throw, and each issue they report points at the offending value of the input.

const verdictArb = fc.record(
  {
    criterion_id: fc.constantFrom('a', 'b', 'constructor'),
    verdict: fc.constantFrom('PASS', 'FAIL'),
    iteration: fc.nat(4),
    recommendation: fc.constantFrom('retry', 'block'),
    recommended_rerun_stages: fc.subarray(['07-code', '08-testing']),
  },
  { requiredKeys: ['verdict'] },
);

// The value at a JSON path inside an input, or NOT_FOUND.
const NOT_FOUND = Symbol('not found');
const valueAt = (input: unknown, path: readonly (string | number)[]): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' && Object.hasOwn(value, key)
        ? (value as Record<string | number, unknown>)[key]
        : NOT_FOUND,
    input,
  );

// Every issue path points into the input: its parent is an object (string key) or an array (index) of the input;
// only the last key may name what is missing there.
const expectPathsInto = (input: unknown, issues: readonly { path: readonly (string | number)[] }[]) => {
  for (const { path } of issues) {
    if (path.length === 0) continue;
    const parent = valueAt(input, path.slice(0, -1));
    expect(parent, JSON.stringify(path)).toBeTypeOf('object');
    expect(parent, JSON.stringify(path)).not.toBeNull();
    expect(typeof path.at(-1), JSON.stringify(path)).toBe(Array.isArray(parent) ? 'number' : 'string');
  }
};

const GOAL_STAGES = ['07-code', '08-testing'];
// A valid criterion of each kind (the id is filled in later).
const validCriterion = fc.oneof(
  fc.record({
    kind: fc.constant('file_exists'),
    path: fc.constantFrom('a.json', 'docs'),
    rerun_stages: fc.subarray(GOAL_STAGES),
  }),
  fc.record({
    kind: fc.constant('command'),
    command: fc.constant('npm test'),
    expect_exit_code: fc.nat(2),
    rerun_stages: fc.subarray(GOAL_STAGES),
  }),
  fc.record({
    kind: fc.constant('metric_threshold'),
    source: fc.constantFrom('feedback', 'loop_state'),
    metric: fc.constantFrom('x', 'summary.critical_count'),
    operator: fc.constantFrom('>=', '<', '=='),
    value: fc.integer({ min: 0, max: 100 }),
    rerun_stages: fc.subarray(GOAL_STAGES),
  }),
  fc.record({ kind: fc.constant('judge'), question: fc.constant('ok?'), rerun_stages: fc.subarray(GOAL_STAGES) }),
);
type RawCriterion = Record<string, unknown>;
// One defect injected into criterion i: the path (inside the criterion) it must be reported at, and the bad value.
type Defect = readonly [readonly (string | number)[], unknown];
const defects = (criterion: RawCriterion): Defect[] => [
  [['id'], 42],
  [['id'], ''],
  [['kind'], 'nope'],
  [['rerun_stages'], 'all'],
  [['rerun_stages', 0], '99-unknown'],
  ...(criterion.kind === 'file_exists' ? [[['path'], 7] as Defect] : []),
  ...(criterion.kind === 'command' ? [[['expect_exit_code'], 'zero'] as Defect] : []),
  ...(criterion.kind === 'metric_threshold' ? [[['operator'], '=~'] as Defect, [['value'], 'ninety'] as Defect] : []),
];
// A valid goal, then one defect in one place; with the path at which the bad value sits.
const badGoal = fc
  .record({
    criteria: fc.array(validCriterion, { minLength: 1, maxLength: 4 }),
    pick: fc.nat(),
    defect: fc.nat(),
  })
  .map(({ criteria, pick, defect }) => {
    const goal = {
      schema_version: 1,
      goal_id: 'g',
      criteria: criteria.map((criterion, index): RawCriterion => ({ id: `c${index}`, ...criterion })),
    };
    const index = pick % goal.criteria.length;
    const target = goal.criteria[index] as RawCriterion;
    const options = defects(target);
    const [inner, bad] = options[defect % options.length] as [readonly (string | number)[], unknown];
    if (inner.length === 2) target.rerun_stages = [bad, ...(target.rerun_stages as string[])];
    else target[inner[0] as string] = bad;
    return { goal, path: ['criteria', index, ...inner], bad };
  });

describe('contract parsers: issues point at the offending value', () => {
  it('parseGoal on arbitrary JSON: never throws, and every issue path points into the input', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        const result = parseGoal(input, { stages: ['07-code'] });
        expectPathsInto(input, result.issues);
        if (!result.success) expect(result.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('parseGoal on a valid goal with one bad value: fails with issues only at that value', () => {
    fc.assert(
      fc.property(badGoal, ({ goal, path, bad }) => {
        expect(parseGoal({ ...goal, criteria: [] }, { stages: GOAL_STAGES }).success).toBe(true);
        const result = parseGoal(goal, { stages: GOAL_STAGES });
        expect(result.success).toBe(false);
        expect(result.issues.length).toBeGreaterThan(0);
        for (const issue of result.issues) expect(issue.path).toEqual(path);
        expect(valueAt(goal, path)).toEqual(bad);
      }),
      { numRuns: 200 },
    );
  });

  it('parseGoal on near-valid goals with arbitrary criteria: every issue path points into the input', () => {
    const nearGoal = fc.record(
      {
        schema_version: fc.constant(1),
        goal_id: fc.string(),
        min_score: fc.jsonValue(),
        criteria: fc.array(
          fc.oneof(
            fc.jsonValue(),
            fc.record({
              id: fc.string(),
              kind: fc.constantFrom('file_exists', 'command', 'metric_threshold', 'judge', 'json_schema', 'nope'),
              path: fc.string(),
              rerun_stages: fc.array(fc.string()),
            }),
          ),
        ),
      },
      { requiredKeys: ['schema_version'] },
    );
    fc.assert(
      fc.property(nearGoal, (input) => {
        expectPathsInto(input, parseGoal(input, { stages: ['07-code'] }).issues);
      }),
      { numRuns: 300 },
    );
  });

  it('parseVerdictFile keeps the valid verdicts and reports each invalid entry at its index', () => {
    // Junk that is not a verdict (parsing it alone yields an issue).
    const junk = fc.jsonValue().filter((value) => parseVerdictFile([value]).issues.length > 0);
    const entry = fc.oneof(
      verdictArb.map((verdict) => ({ valid: true, value: verdict as unknown })),
      junk.map((value) => ({ valid: false, value })),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.boolean(), (entries, wrapped) => {
        const list = entries.map((item) => item.value);
        const input = wrapped ? { verdicts: list } : list;
        const result = parseVerdictFile(input, { stages: ['07-code', '08-testing'] });
        expect(result.verdicts).toEqual(entries.filter((item) => item.valid).map((item) => item.value));
        expectPathsInto(input, result.issues);
        const reported = new Set(result.issues.map((issue) => issue.path[wrapped ? 1 : 0]));
        const invalid = entries.flatMap((item, index) => (item.valid ? [] : [index]));
        expect([...reported].sort()).toEqual(invalid.sort());
      }),
      { numRuns: 300 },
    );
  });

  it('readFeedbackView on arbitrary JSON: a malformed report has issues pointing into it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        const read = readFeedbackView(input);
        if (read.state === 'malformed') {
          expect(read.issues.length).toBeGreaterThan(0);
          expectPathsInto(input, read.issues);
        }
      }),
      { numRuns: 300 },
    );
  });
});
