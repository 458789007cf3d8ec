import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../../src/errors.js';
import { fixSessionStateSchema, MAX_FAILURE_OUTPUT_CHARS } from '../../../src/fix-loop/contracts/session.js';
import { DEFAULT_MAX_ATTEMPTS, MAX_ATTEMPTS_CAP } from '../../../src/fix-loop/contracts/start.js';
import { createFixSessionState, failureOutputTail, parseFixSessionStart } from '../../../src/fix-loop/core/start.js';

const start = { goal: 'the tests pass', goalType: 'tests', workspace: 'app', testCommand: 'npm test' };

describe('parseFixSessionStart', () => {
  it('defaults maxAttempts to 5 and keeps the commands', () => {
    const result = parseFixSessionStart({ ...start, buildCommand: 'npm run build', testCommand: 'npm test' });
    expect(result).toEqual({
      success: true,
      data: { ...start, buildCommand: 'npm run build', testCommand: 'npm test', maxAttempts: DEFAULT_MAX_ATTEMPTS },
      issues: [],
    });
  });

  it('clamps maxAttempts above the cap and says so', () => {
    const result = parseFixSessionStart({ ...start, maxAttempts: MAX_ATTEMPTS_CAP + 1 });
    expect(result.success && result.data.maxAttempts).toBe(MAX_ATTEMPTS_CAP);
    expect(result.issues).toEqual([expect.objectContaining({ code: 'clamped', path: ['maxAttempts'] })]);
    expect(parseFixSessionStart({ ...start, maxAttempts: MAX_ATTEMPTS_CAP }).issues).toEqual([]);
  });

  it('names the JSON path of every bad field', () => {
    const result = parseFixSessionStart({ goal: '', goalType: 3, maxAttempts: 0, testCommand: '', extra: true });
    expect(result.success).toBe(false);
    const paths = result.issues.map((issue) => formatIssue(issue).split(':')[0]);
    expect(paths).toEqual(
      expect.arrayContaining(['$.goal', '$.goalType', '$.workspace', '$.maxAttempts', '$.testCommand', '$']),
    );
  });

  it('refuses a start with neither a build nor a test command, naming $.testCommand', () => {
    const { testCommand: _, ...idle } = start;
    const issue = {
      code: 'custom',
      path: ['testCommand'],
      message: 'at least one of the build and test commands is required',
    };
    expect(parseFixSessionStart(idle)).toEqual({ success: false, issues: [issue] });
    expect(parseFixSessionStart({ ...idle, buildCommand: 'tsc' }).success).toBe(true);
    // An empty command is refused as such, with one issue at its path.
    expect(parseFixSessionStart({ ...idle, testCommand: '' }).issues.map((i) => i.path.join('.'))).toEqual([
      'testCommand',
    ]);
  });

  it('refuses a maxAttempts that is not a whole number', () => {
    for (const bad of [2.5, '5', Number.NaN, -1]) {
      expect(parseFixSessionStart({ ...start, maxAttempts: bad }).success).toBe(false);
    }
  });

  it('never throws on hostile input', () => {
    const hostile = {
      ...start,
      get goal(): string {
        throw new Error('boom');
      },
    };
    expect(parseFixSessionStart(hostile)).toMatchObject({ success: false, issues: [{ code: 'unreadable' }] });
    expect(parseFixSessionStart(null).success).toBe(false);
  });
});

describe('createFixSessionState', () => {
  it('is a pending record, snake_case as state.json stores it, that the state schema accepts', () => {
    const parsed = parseFixSessionStart({ ...start, testCommand: 'npm test' });
    if (!parsed.success) throw new Error('unreachable');
    const state = createFixSessionState({ sessionId: 's-1', start: parsed.data, ts: '2026-01-01T00:00:00.000Z' });
    expect(state).toMatchObject({ status: 'pending', environment_verified: false, gap: null, max_attempts: 5 });
    expect(state).toMatchObject({ goal_type: 'tests', test_command: 'npm test', workspace: 'app' });
    expect(state).not.toHaveProperty('build_command');
    expect(state).not.toHaveProperty('goalType');
    expect(fixSessionStateSchema.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('keeps where the test command writes its report', () => {
    const testReport = { format: 'junit' as const, path: 'reports/junit.xml' };
    const state = createFixSessionState({ sessionId: 's', start: { ...start, maxAttempts: 3, testReport }, ts: 't' });
    expect(state.test_report).toEqual(testReport);
    expect(fixSessionStateSchema.safeParse(state).success).toBe(true);
  });

  it('clamps max_attempts to the cap, so the record stays valid', () => {
    const state = createFixSessionState({ sessionId: 's', start: { ...start, maxAttempts: 999 }, ts: 't' });
    expect(state.max_attempts).toBe(MAX_ATTEMPTS_CAP);
    expect(fixSessionStateSchema.safeParse(state).success).toBe(true);
    expect(fixSessionStateSchema.safeParse({ ...state, max_attempts: MAX_ATTEMPTS_CAP + 1 }).success).toBe(false);
  });
});

describe('failureOutputTail', () => {
  it('keeps short output as it is', () => {
    expect(failureOutputTail('error TS2304')).toBe('error TS2304');
  });

  it('keeps the end of long output within the bound, marking the cut', () => {
    const long = `${'x'.repeat(MAX_FAILURE_OUTPUT_CHARS)}\nFAIL 3 tests`;
    const tail = failureOutputTail(long);
    expect(tail.length).toBeLessThanOrEqual(MAX_FAILURE_OUTPUT_CHARS);
    expect(tail.endsWith('\nFAIL 3 tests')).toBe(true);
    expect(tail.startsWith('…[earlier output cut]')).toBe(true);
  });

  it('never starts on half a surrogate pair', () => {
    const tail = failureOutputTail('😀'.repeat(MAX_FAILURE_OUTPUT_CHARS));
    expect(tail.length).toBeLessThanOrEqual(MAX_FAILURE_OUTPUT_CHARS);
    expect(tail).not.toMatch(/[\uDC00-\uDFFF]/u);
  });
});
