import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/index.js';
import { createFakeCommandRunner, createMemoryFileSystem, createScriptedStageRunner } from '../../src/testing.js';

// A command criterion that cannot run says why, in its detail and in the evaluation's reason, so the user knows
// what to fix: no command runner given (the `commands` option), or a dry run that skips commands.

const goal = { schema_version: 1 as const, criteria: [{ id: 'tests', kind: 'command' as const, command: 'npm test' }] };

function loop(options: { commands?: ReturnType<typeof createFakeCommandRunner> } = {}) {
  const runner = createScriptedStageRunner({ a: { status: 'passed' } });
  return new GoalLoop({ fs: createMemoryFileSystem(), runDir: 'run', stages: ['a'], runner, goal, ...options });
}

describe('a command criterion that did not run', () => {
  it('names the missing command runner and the `commands` option, in the detail and in the reason', async () => {
    const evaluation = await loop().evaluate();
    expect(evaluation.criteria[0]).toMatchObject({
      status: 'PENDING',
      summary: 'no command runner was given: pass `commands`',
      detail:
        '`npm test` was not run: no command runner was given (pass the `commands` option, e.g. ' +
        'createExecaCommandRunner() from goal-loop/node).',
    });
    expect(evaluation.reason).toContain('Criterion tests is pending (no command runner was given: pass `commands`)');
  });

  it('says a dry run skipped it when skipCommands is set, and runs it when a runner is given', async () => {
    const commands = createFakeCommandRunner({ 'npm test': { exitCode: 0 } });
    const skipped = await loop({ commands }).evaluate({ skipCommands: true });
    expect(skipped.criteria[0]).toMatchObject({ status: 'PENDING', summary: 'command skipped' });
    expect(skipped.criteria[0]?.detail).toContain('skipCommands');
    expect(commands.calls).toEqual([]);
    expect((await loop({ commands }).evaluate()).criteria[0]?.status).toBe('PASS');
  });
});
