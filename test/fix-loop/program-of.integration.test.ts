import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programOf } from '../../src/fix-loop/environment-probe.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { startInput } from './helpers.js';

// The probe checks the program a command runs first; shell grouping around it is no part of its name.

describe('programOf: subshells, groups and operators', () => {
  it.each([
    ['(exit 1)', 'exit'],
    ['( cd sub && npm test )', 'cd'],
    ['((npm))', null],
    ['{ exit 1; }', 'exit'],
    ['! true', 'true'],
    ['(npm)', 'npm'],
    ['false|cat', 'false'],
    ['npm;', 'npm'],
    ['"(x)" --y', '(x)'],
    ['(', null],
  ])('%s runs %s first', (command, program) => {
    expect(programOf(command)).toBe(program);
  });

  it('a session whose test command is a subshell is probed and measured, not escalated for a program "(exit"', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fix-loop-program-'));
    try {
      await mkdir(join(root, 'ws'));
      const commands = createExecaCommandRunner();
      const fixer = new FixLoopOrchestrator({
        fs: createNodeFileSystem(root),
        dir: 'sessions',
        commands,
        candidates: { propose: async () => [] },
        applier: { apply: async () => ({ applied: false, detail: '' }) },
      });
      const { sessionId } = await fixer.start(startInput({ buildCommand: undefined, testCommand: '(exit 1)' }));
      expect(await fixer.step(sessionId)).toMatchObject({ action: 'probe', status: 'running' });
      const measured = await fixer.step(sessionId);
      expect(measured.gap).toMatchObject({ tests: { failed: 1 }, requirements: { missing: [] } });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
