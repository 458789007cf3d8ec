import { describe, expect, it } from 'vitest';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { FixLoopStartInput } from '../../src/fix-loop/start-input.js';
import { memoryProject, simulate, simulatedOptions, startInput } from './helpers.js';

const DIR = 'sessions';

function orchestrator() {
  const sim = simulate([]);
  const fs = memoryProject();
  const fixer = new FixLoopOrchestrator(simulatedOptions(sim, fs, DIR));
  return { fs, fixer };
}

// The issues of the error start() rejects with.
async function issuesOf(input: unknown): Promise<string[]> {
  const error = await orchestrator()
    .fixer.start(input as FixLoopStartInput)
    .then(
      () => null,
      (reason: unknown) => reason as { code: string; message: string; issues: { path: unknown[] }[] },
    );
  expect(error).toMatchObject({ name: 'GoalLoopError', code: 'INVALID_OPTIONS' });
  return (error?.issues ?? []).map((issue) => issue.path.join('.'));
}

describe('FixLoopOrchestrator.start', () => {
  it('names the JSON path of every bad field', async () => {
    const error = await orchestrator()
      .fixer.start({ goal: '', goalType: 'tests', maxAttempts: 0 } as unknown as FixLoopStartInput)
      .then(
        () => new Error('start resolved'),
        (reason: unknown) => reason as Error,
      );
    expect(error.message).toMatch(/\$\.goal: /);
    expect(error.message).toMatch(/\$\.workspace: /);
    expect(error.message).toMatch(/\$\.maxAttempts: /);
    expect(await issuesOf({ ...startInput(), extra: 1 })).toEqual(['extra']);
    expect(await issuesOf({ ...startInput(), testReport: { format: 'tap', path: 'r' } })).toEqual([
      'testReport.format',
    ]);
    expect(await issuesOf(null)).toEqual(['']);
  });

  it('refuses a workspace outside the root, a report outside the workspace, a bad or taken session id', async () => {
    expect(await issuesOf(startInput({ workspace: '../elsewhere' }))).toEqual(['workspace']);
    expect(await issuesOf(startInput({ workspace: '/etc' }))).toEqual(['workspace']);
    expect(await issuesOf(startInput({ testReport: { format: 'junit', path: '../r.xml' } }))).toEqual([
      'testReport.path',
    ]);
    expect(await issuesOf(startInput({ testReport: { format: 'junit', path: '/tmp/r.xml' } }))).toEqual([
      'testReport.path',
    ]);
    expect(await issuesOf(startInput({ sessionId: '../x' }))).toEqual(['sessionId']);
    const { fixer } = orchestrator();
    await fixer.start(startInput({ sessionId: 'mine' }));
    await expect(fixer.start(startInput({ sessionId: 'mine' }))).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      issues: [{ path: ['sessionId'], code: 'session_exists' }],
    });
  });

  it('accepts a missing workspace (the probe reports it) and clamps maxAttempts with a note', async () => {
    const { fs, fixer } = orchestrator();
    const started = await fixer.start(startInput({ workspace: 'not-yet', maxAttempts: 500, sessionId: 's-1' }));
    expect(started).toMatchObject({
      sessionId: 's-1',
      status: 'pending',
      issues: [{ code: 'clamped', path: ['maxAttempts'] }],
    });
    const state = await fixer.get('s-1');
    expect(state).toMatchObject({ maxAttempts: 50, workspace: 'not-yet', status: 'pending', auditTail: [] });
    expect(await fs.readText(`${DIR}/s-1/audit.jsonl`)).toBeNull();
    expect(await fs.stat(`${DIR}/s-1/session.lock`)).toBeNull();
  });

  it('refuses a session with neither a build nor a test command, at $.testCommand, writing nothing', async () => {
    const { fs, fixer } = orchestrator();
    const input = startInput({ buildCommand: undefined, testCommand: undefined, sessionId: 'idle' });
    await expect(fixer.start(input)).rejects.toMatchObject({
      name: 'GoalLoopError',
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('$.testCommand: at least one of the build and test commands is required'),
      issues: [
        {
          code: 'custom',
          path: ['testCommand'],
          message: 'at least one of the build and test commands is required',
        },
      ],
    });
    expect(await fs.stat(`${DIR}/idle`)).toBeNull();
    // Reported beside the other fields' issues.
    expect(await issuesOf({ goal: 'g', goalType: 't', workspace: '' })).toEqual(['workspace', 'testCommand']);
    // Either command alone is enough.
    expect((await fixer.start(startInput({ buildCommand: undefined }))).status).toBe('pending');
    expect((await fixer.start(startInput({ testCommand: undefined }))).status).toBe('pending');
  });

  it('refuses the snake_case names of the session record and the tools, naming the camelCase field meant', async () => {
    const { fs, fixer } = orchestrator();
    const snake = { goal: 'g', goal_type: 't', workspace: 'ws', test_command: 'npm test', session_id: 'snake' };
    const error = await fixer.start(snake as unknown as FixLoopStartInput).then(
      () => null,
      (reason: unknown) => reason as { message: string; issues: { path: unknown[]; message: string }[] },
    );
    expect(error?.issues).toEqual(
      expect.arrayContaining([
        {
          code: 'unrecognized_keys',
          path: ['goal_type'],
          message: 'unknown field `goal_type`; did you mean `goalType`?',
        },
        expect.objectContaining({ path: ['test_command'], message: expect.stringContaining('`testCommand`') }),
        expect.objectContaining({ path: ['session_id'], message: expect.stringContaining('`sessionId`') }),
        expect.objectContaining({ path: ['goalType'] }),
      ]),
    );
    expect(error?.message).toContain('$.goal_type: unknown field `goal_type`; did you mean `goalType`?');
    expect(await fs.stat(`${DIR}/snake`)).toBeNull();
  });

  it('keeps the test report in the session record', async () => {
    const { fixer } = orchestrator();
    const report = { format: 'jest-json', path: 'out/report.json' } as const;
    const { sessionId } = await fixer.start(startInput({ testReport: report }));
    expect((await fixer.get(sessionId)).state.test_report).toEqual(report);
  });

  it('refuses bad options with INVALID_OPTIONS naming each path, and a bad session id in step and get', async () => {
    const sim = simulate([]);
    expect(
      () =>
        new FixLoopOrchestrator({
          fs: memoryProject(),
          dir: '../out',
          commands: sim.commands,
          candidates: {} as never,
          applier: sim.applier,
          commandTimeoutMs: 0,
        }),
    ).toThrow(/\$\.dir: .*\$\.candidates: .*\$\.commandTimeoutMs: /);
    const { fixer } = orchestrator();
    await expect(fixer.step('a/b')).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      issues: [{ path: ['sessionId'] }],
    });
    await expect(fixer.get('missing')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await expect(fixer.runToCompletion('missing')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });
});
