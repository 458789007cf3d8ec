import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../../src/errors.js';
import { parseGoal } from '../../../src/goal/contracts/parse-goal.js';

// Criterion paths that climb out of the project with `..` are goal issues at their own JSON path.

type Raw = Record<string, unknown>;
const goal = (...criteria: Raw[]) => ({ schema_version: 1, criteria });
const file = (path: string, extra: Raw = {}): Raw => ({ id: 'f', kind: 'file_exists', path, ...extra });
const metric = (source: unknown): Raw => ({
  id: 'm',
  kind: 'metric_threshold',
  source,
  metric: 'value',
  operator: '>=',
  value: 1,
});
const schema = (fields: Raw): Raw => ({ id: 's', kind: 'json_schema', path: 'out.json', ...fields });

const issuesOf = (input: unknown) => {
  const result = parseGoal(input);
  return result.success ? [] : result.issues.map(formatIssue);
};

describe('parseGoal: paths escaping with ..', () => {
  it('names each escaping path at its JSON path', () => {
    const issues = issuesOf(
      goal(
        file('../../../etc/passwd'),
        metric({ file: '../../../../etc/hosts' }),
        schema({ schema_path: 'schemas/../../up.json' }),
      ),
    );
    expect(issues).toEqual([
      expect.stringMatching(/^\$\.criteria\[0\]\.path: "\.\.\/\.\.\/\.\.\/etc\/passwd" escapes the project root/),
      expect.stringMatching(
        /^\$\.criteria\[1\]\.source\.file: "\.\.\/\.\.\/\.\.\/\.\.\/etc\/hosts" escapes the run directory/,
      ),
      expect.stringMatching(/^\$\.criteria\[2\]\.schema_path: .*\(it normalises to "\.\.\/up\.json"/),
    ]);
  });

  it('leaves absolute paths, run-relative climbs and paths that stay inside to the evaluation', () => {
    expect(
      issuesOf(
        goal(
          file('/etc/passwd'),
          file('../shared/plan.json', { id: 'g', run_relative: true }),
          file('docs/../README.md', { id: 'h' }),
          metric({ file: 'sub/../metrics-extra.json' }),
          schema({ path: '../x.json', run_relative: true, schema: { type: 'object' } }),
        ),
      ),
    ).toEqual([]);
  });

  it('an issue exactly when the normalised relative path starts with ..', () => {
    const segment = fc.constantFrom('..', '.', 'a', 'b', '');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const path = segments.join('/');
        fc.pre(path.trim() !== '' && !path.startsWith('/'));
        let depth = 0;
        let escapes = false;
        for (const part of segments) {
          if (part === '..') depth -= 1;
          else if (part !== '.' && part !== '') depth += 1;
          if (depth < 0) escapes = true;
        }
        expect(issuesOf(goal(file(path))).length > 0).toBe(escapes);
      }),
    );
  });
});
