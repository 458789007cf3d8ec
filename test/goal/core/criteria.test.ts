import { describe, expect, it } from 'vitest';
import { OUTPUT_TAIL_CHARS } from '../../../src/goal/core/command-outcome.js';
import { type CriterionContext, evaluateCriterion } from '../../../src/goal/core/criteria.js';
import type { CriterionFact } from '../../../src/goal/core/facts.js';
import {
  command,
  FEEDBACK,
  fileExists,
  goal,
  jsonSchema,
  judge,
  metric,
  metricDoc,
  present,
  ran,
  STAGES,
  schemaChecked,
} from './fixtures.js';

const context: CriterionContext = { stages: STAGES, feedbackStage: FEEDBACK };

// Evaluates one raw criterion against one fact.
function evaluate(raw: Record<string, unknown>, fact: CriterionFact | undefined, ctx: CriterionContext = context) {
  const criterion = goal([raw]).criteria[0];
  if (criterion === undefined) throw new Error('no criterion');
  return evaluateCriterion(criterion, fact, ctx);
}

describe('file_exists', () => {
  it('passes for a file or a directory', () => {
    expect(evaluate(fileExists('doc'), present('file')).status).toBe('PASS');
    expect(evaluate(fileExists('doc'), present('directory')).status).toBe('PASS');
  });

  it('fails for missing, refused or other entries, with the detail', () => {
    expect(
      evaluate(fileExists('doc'), { kind: 'file_exists', path: { state: 'missing', path: 'doc.json' } }),
    ).toMatchObject({ status: 'FAIL', detail: 'doc.json does not exist.' });
    const refused = evaluate(fileExists('doc', '../etc/passwd'), {
      kind: 'file_exists',
      path: { state: 'refused', detail: 'it escapes the project root' },
    });
    expect(refused.status).toBe('FAIL');
    expect(refused.detail).toContain('escapes the project root');
    expect(evaluate(fileExists('doc'), present('other')).status).toBe('FAIL');
  });

  it('keeps the rerun stages', () => {
    expect(evaluate(fileExists('doc', 'd.json', ['03-documentation']), present()).rerunStages).toEqual([
      '03-documentation',
    ]);
  });
});

describe('command', () => {
  it('passes iff the exit code equals expect_exit_code, keeping the exit code as observed', () => {
    expect(evaluate(command('lint'), ran({ exitCode: 0 }))).toMatchObject({
      status: 'PASS',
      observed: 0,
      durationMs: 10,
    });
    const failed = evaluate(
      command('lint'),
      ran({ exitCode: 1, durationMs: 1234, stderrTail: 'first\nlint error here\n' }),
    );
    expect(failed).toMatchObject({
      status: 'FAIL',
      observed: 1,
      summary: 'exit code 1',
      durationMs: 1234,
      outputTail: 'first\nlint error here\n',
    });
    expect(failed.detail).toContain('1234 ms');
    expect(failed.detail).toContain('lint error here');
    expect(evaluate(command('x', [], { expect_exit_code: 3 }), ran({ exitCode: 3 })).status).toBe('PASS');
    expect(evaluate(command('x', [], { expect_exit_code: 3 }), ran({ exitCode: 0 }))).toMatchObject({
      status: 'FAIL',
      summary: 'exit code 0, expected 3',
    });
  });

  it('fails on a timeout', () => {
    const result = evaluate(command('slow'), ran({ exitCode: null, timedOut: true, durationMs: 120000 }));
    expect(result).toMatchObject({ status: 'FAIL', observed: null, summary: 'timed out after 120000 ms' });
  });

  it('fails when the command cannot start or is killed without an exit code', () => {
    expect(evaluate(command('x'), ran({ exitCode: null, startError: 'ENOENT' }))).toMatchObject({
      status: 'FAIL',
      summary: 'could not start',
    });
    expect(evaluate(command('x'), ran({ exitCode: null }))).toMatchObject({
      status: 'FAIL',
      summary: 'killed without an exit code',
    });
  });

  it('is PENDING when skipped or aborted', () => {
    expect(
      evaluate(command('x'), { kind: 'command', outcome: { state: 'skipped', detail: 'skipCommands is set' } }),
    ).toMatchObject({ status: 'PENDING', summary: 'command skipped' });
    const unrun = { state: 'skipped', detail: 'no runner', summary: 'no runner: pass `commands`' } as const;
    expect(evaluate(command('x'), { kind: 'command', outcome: unrun })).toMatchObject({
      status: 'PENDING',
      summary: 'no runner: pass `commands`',
      detail: '`npm run x` was not run: no runner.',
    });
    expect(evaluate(command('x'), ran({ exitCode: null, aborted: true })).status).toBe('PENDING');
  });

  it("keeps the runner's note in the detail whatever the outcome (a detached process it left running)", () => {
    const note =
      'the shell exited, but a process outside its process group (detached, e.g. by setsid) held the output open: stopped reading it after 300 ms, without killing it';
    for (const result of [{ exitCode: 0 }, { exitCode: 1 }, { exitCode: null }, { exitCode: null, timedOut: true }]) {
      expect(evaluate(command('x'), ran({ ...result, detail: note })).detail).toContain(`(${note})`);
    }
    expect(evaluate(command('x'), ran({ exitCode: 0 })).detail).toBe('`npm run x` exited 0 (expected 0) in 10 ms.');
  });

  it('caps the kept output tail and prefers standard error', () => {
    const long = 'y'.repeat(OUTPUT_TAIL_CHARS + 50);
    expect(evaluate(command('x'), ran({ exitCode: 1, stdoutTail: long })).outputTail).toHaveLength(OUTPUT_TAIL_CHARS);
    expect(evaluate(command('x'), ran({ exitCode: 1, stdoutTail: 'out', stderrTail: 'err' })).outputTail).toBe('err');
  });
});

describe('metric_threshold', () => {
  it('compares a real number', () => {
    expect(evaluate(metric('m'), metricDoc({ summary: { critical_count: 0 } }))).toMatchObject({
      status: 'PASS',
      observed: 0,
    });
    expect(evaluate(metric('m'), metricDoc({ summary: { critical_count: 2 } }))).toMatchObject({
      status: 'FAIL',
      observed: 2,
      summary: 'summary.critical_count = 2, required == 0',
    });
  });

  it('accepts a numeric string', () => {
    expect(
      evaluate(metric('m', { operator: '>=', value: 40 }), metricDoc({ summary: { critical_count: ' 42 ' } })),
    ).toMatchObject({ status: 'PASS', observed: 42 });
  });

  it.each([[null], [''], [true], [[]], [{}], ['NaN'], ['abc']])(
    'is PENDING for the non-number %j (null is not 0)',
    (value) => {
      const result = evaluate(metric('m'), metricDoc({ summary: { critical_count: value } }));
      expect(result.status).toBe('PENDING');
      expect(result.detail).toContain('not a number');
    },
  );

  it('reads the length of an array (`issues.length == 0`), as rstack-agents does', () => {
    const noIssues = metric('m', { metric: 'issues.length' });
    expect(evaluate(noIssues, metricDoc({ issues: [] }))).toMatchObject({ status: 'PASS' });
    expect(evaluate(noIssues, metricDoc({ issues: [{ id: 'a' }, { id: 'b' }] }))).toMatchObject({ status: 'FAIL' });
    expect(evaluate(noIssues, metricDoc({ issues: 'none' }))).toMatchObject({ status: 'PENDING' });
  });

  it('is PENDING when the metric is absent', () => {
    expect(evaluate(metric('m'), metricDoc({ summary: {} }))).toMatchObject({
      status: 'PENDING',
      summary: 'summary.critical_count not found',
    });
  });

  it('adds the feedback stage when a missing feedback source names no rerun stage', () => {
    const missing: CriterionFact = { kind: 'metric_threshold', source: { state: 'missing', detail: 'no file' } };
    expect(evaluate(metric('m'), missing)).toMatchObject({ status: 'PENDING', rerunStages: [FEEDBACK] });
    expect(evaluate(metric('m', { rerun_stages: ['07-code'] }), missing).rerunStages).toEqual(['07-code']);
    expect(evaluate(metric('m'), missing, { stages: ['07-code'], feedbackStage: FEEDBACK }).rerunStages).toEqual([]);
    expect(evaluate(metric('m', { source: { file: 'm.json' } }), missing).rerunStages).toEqual([]);
  });

  it('is PENDING for a malformed source and FAIL for a refused one', () => {
    expect(
      evaluate(metric('m'), { kind: 'metric_threshold', source: { state: 'malformed', detail: 'bad JSON' } }).status,
    ).toBe('PENDING');
    expect(
      evaluate(metric('m', { source: { file: '../x.json' } }), {
        kind: 'metric_threshold',
        source: { state: 'refused', detail: 'outside the run dir' },
      }).status,
    ).toBe('FAIL');
  });
});

describe('json_schema', () => {
  it('passes when valid and fails with the first errors', () => {
    expect(evaluate(jsonSchema('api'), schemaChecked(true)).status).toBe('PASS');
    const result = evaluate(jsonSchema('api'), schemaChecked(false, ['/ must have endpoints', 'e2', 'e3', 'e4']));
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('/ must have endpoints; e2; e3 (and 1 more)');
  });

  it('fails when the document is unavailable', () => {
    expect(
      evaluate(jsonSchema('api'), {
        kind: 'json_schema',
        outcome: { state: 'unavailable', detail: 'api.json is missing' },
      }).status,
    ).toBe('FAIL');
  });
});

describe('missing or mismatched facts and judges', () => {
  it('is PENDING without a fact or with a fact of another kind', () => {
    expect(evaluate(fileExists('doc'), undefined)).toMatchObject({ status: 'PENDING', summary: 'not evaluated' });
    expect(evaluate(fileExists('doc'), ran())).toMatchObject({
      status: 'PENDING',
      detail: expect.stringContaining('command criterion'),
    });
  });

  it('takes a judge from the verdict protocol outcome', () => {
    expect(evaluate(judge('review', ['06-architecture']), undefined)).toMatchObject({
      status: 'PENDING',
      rerunStages: ['06-architecture'],
    });
    const decided = evaluate(judge('review'), undefined, {
      ...context,
      judge: {
        state: 'decided',
        verdict: 'FAIL',
        source: 'explicit',
        recommendation: 'block',
        rerunStages: ['07-code'],
        detail: 'd',
        summary: 's',
      },
    });
    expect(decided).toMatchObject({
      status: 'FAIL',
      verdictSource: 'explicit',
      recommendation: 'block',
      rerunStages: ['07-code'],
    });
  });
});
