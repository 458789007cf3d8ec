import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../../src/errors.js';
import { parseGoalStructure as parseGoal } from '../../../src/goal/contracts/parse-goal.js';

// Unknown goal keys are named at their own path, with the known key they most likely misspell.

type Raw = Record<string, unknown>;
const judge = (extra: Raw = {}): Raw => ({ id: 'j', kind: 'judge', question: 'ok?', ...extra });
const issuesOf = (input: unknown) => {
  const result = parseGoal(input);
  return result.success ? [] : result.issues;
};

describe('parseGoal: unknown keys', () => {
  it('names a misspelt criterion key at its own path and suggests the key of that kind', () => {
    const criteria = [judge(), judge({ id: 'k', rerun_stage: ['a'] })];
    expect(issuesOf({ schema_version: 1, criteria }).map(formatIssue)).toEqual([
      '$.criteria[1].rerun_stage: unknown key `rerun_stage`; did you mean `rerun_stages`?',
    ]);
  });

  it('suggests among the keys of the criterion kind and of the goal, one issue per key', () => {
    const input = {
      schema_version: 1,
      min_scor: 90,
      criteria: [
        { id: 'f', kind: 'file_exists', path: 'a', run_relativ: true, colour: 'red' },
        { id: 'c', kind: 'command', command: 'true', timeout: 5 },
      ],
    };
    expect(issuesOf(input).map(formatIssue)).toEqual([
      '$.criteria[0].run_relativ: unknown key `run_relativ`; did you mean `run_relative`?',
      '$.criteria[0].colour: unknown key `colour`',
      '$.criteria[1].timeout: unknown key `timeout`',
      '$.min_scor: unknown key `min_scor`; did you mean `min_score`?',
    ]);
    expect(issuesOf(input).every((issue) => issue.code === 'unrecognized_keys')).toBe(true);
  });

  it('any extra key of a judge criterion is reported at its own path', () => {
    const known = new Set(['id', 'kind', 'question', 'description', 'maintenance_category', 'rerun_stages']);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !known.has(key) && key !== '__proto__'),
        (key) => {
          const criterion = { ...judge(), [key]: 1 };
          expect(issuesOf({ schema_version: 1, criteria: [criterion] }).map((issue) => issue.path)).toEqual([
            ['criteria', 0, key],
          ]);
        },
      ),
    );
  });
});

describe('parseGoal: unknown criterion kinds', () => {
  const KINDS = 'file_exists, command, metric_threshold, judge, json_schema';

  it('names a misspelt kind at its path with the kind it most likely means, listing the kinds', () => {
    const criteria = [judge(), { id: 'f', kind: 'file_exist', path: 'a' }, { id: 'x', kind: 'shell', command: 'x' }];
    expect(issuesOf({ schema_version: 1, criteria })).toEqual([
      {
        code: 'unknown_kind',
        path: ['criteria', 1, 'kind'],
        message: `unknown kind "file_exist"; did you mean \`file_exists\`? (the kinds are ${KINDS})`,
      },
      { code: 'unknown_kind', path: ['criteria', 2, 'kind'], message: `unknown kind "shell" (the kinds are ${KINDS})` },
    ]);
    expect(issuesOf({ schema_version: 1, criteria: [{ id: 'c', kind: 'Command' }] }).map(formatIssue)).toEqual([
      `$.criteria[0].kind: unknown kind "Command"; did you mean \`command\`? (the kinds are ${KINDS})`,
    ]);
  });

  it('says a kind is missing or not text, listing the kinds', () => {
    const criteria = [{ id: 'a' }, { id: 'b', kind: 3 }];
    expect(issuesOf({ schema_version: 1, criteria }).map(formatIssue)).toEqual([
      `$.criteria[0].kind: kind is missing; the kinds are ${KINDS}`,
      `$.criteria[1].kind: kind must be a string; the kinds are ${KINDS}`,
    ]);
  });

  it('reports any string that is not a kind as one unknown_kind issue at the kind, suggesting only kinds (property)', () => {
    const kinds = KINDS.split(', ');
    fc.assert(
      fc.property(
        fc.string({ maxLength: 16 }).filter((kind) => !kinds.includes(kind)),
        (kind) => {
          const issues = issuesOf({ schema_version: 1, criteria: [{ id: 'a', kind }] });
          expect(issues).toEqual([expect.objectContaining({ code: 'unknown_kind', path: ['criteria', 0, 'kind'] })]);
          const suggestion = /did you mean `([^`]*)`/.exec(issues[0]?.message ?? '')?.[1];
          if (suggestion !== undefined) expect(kinds).toContain(suggestion);
        },
      ),
    );
  });
});
