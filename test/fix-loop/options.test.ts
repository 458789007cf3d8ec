import { describe, expect, it } from 'vitest';
import type {
  EnvironmentProbeOptions,
  FixLoopOrchestratorOptions,
  GitPatchApplierOptions,
} from '../../src/fix-loop.js';
import { createEnvironmentProbe, createGitPatchApplier, FixLoopOrchestrator } from '../../src/fix-loop.js';
import { noopTracer } from '../../src/ports/tracer.js';
import { createFakeCommandRunner, createManualClock, createMemoryFileSystem } from '../../src/testing.js';
import { expectUnknownKey, refusal, refusedPaths } from '../kit/option-refusal.js';
import { memoryProject, simulate, simulatedOptions, startInput } from './helpers.js';

const DIR = 'sessions';
const signal = new AbortController().signal;

// The options of an orchestrator on a simulated, fixable workspace, and the filesystem it works on.
function setup(extra: Record<string, unknown> = {}) {
  const sim = simulate(['t1']);
  const fs = memoryProject();
  const options = { ...simulatedOptions(sim, fs, DIR), ...extra } as FixLoopOrchestratorOptions;
  return { fs, options };
}

describe('FixLoopOrchestrator options', () => {
  it.each([
    ['lockTimeoutMS', 'lockTimeoutMs'],
    ['hostCallTimeout', 'hostCallTimeoutMs'],
    ['commandTimeoutMS', 'commandTimeoutMs'],
    ['onListenerErorr', 'onListenerError'],
    ['candidate', 'candidates'],
    ['probes', 'probe'],
  ])('refuses %s, naming its path and suggesting %s', async (key, suggestion) => {
    const { options } = setup({ [key]: 1 });
    const error = await expectUnknownKey(() => new FixLoopOrchestrator(options), [key], suggestion);
    expect(error.message).toContain('Invalid FixLoopOrchestrator options: $.');
  });

  it('lists an unknown key beside the wrong values, each at its path', async () => {
    const { options } = setup({ dir: '/abs', lockTimeoutMs: 0, tracer: {}, applyer: {} });
    expect(await refusedPaths(() => new FixLoopOrchestrator(options))).toEqual([
      ['applyer'],
      ['dir'],
      ['lockTimeoutMs'],
      ['tracer'],
    ]);
  });

  it("refuses keep 'improving' with an applier that cannot revert, naming the path", async () => {
    const { options } = setup({ keep: 'improving' });
    expect(await refusedPaths(() => new FixLoopOrchestrator(options))).toEqual([['keep']]);
  });

  it('accepts every known option', async () => {
    const { fs, options } = setup();
    const all: Required<FixLoopOrchestratorOptions> = {
      ...options,
      keep: 'all',
      probe: { probe: async () => ({ missing: [] }) },
      clock: createManualClock(0),
      signal,
      onEvent: () => undefined,
      onListenerError: () => undefined,
      commandTimeoutMs: 1_000,
      hostCallTimeoutMs: 1_000,
      lockTimeoutMs: 1_000,
      tracer: noopTracer,
      genAiAttributes: true,
    };
    const fixer = new FixLoopOrchestrator(all);
    const { sessionId } = await fixer.start(startInput());
    expect((await fixer.runToCompletion(sessionId)).status).toBe('converged');
    expect(await fs.stat(`${DIR}/${sessionId}/state.json`)).not.toBeNull();
  });
});

describe('runToCompletion and get options', () => {
  it('refuses a misspelt runToCompletion option before anything runs, and writes nothing', async () => {
    const { fs, options } = setup();
    const fixer = new FixLoopOrchestrator(options);
    const { sessionId } = await fixer.start(startInput());
    const before = await fs.readText(`${DIR}/${sessionId}/state.json`);
    const error = await expectUnknownKey(
      () => fixer.runToCompletion(sessionId, { maxWallMS: 10 } as never),
      ['maxWallMS'],
      'maxWallMs',
    );
    expect(error.message).toContain('FixLoopOrchestrator.runToCompletion()');
    expect(await fs.readText(`${DIR}/${sessionId}/state.json`)).toBe(before);
    expect(await fs.stat(`${DIR}/${sessionId}/audit.jsonl`)).toBeNull();
  });

  it.each([
    [-1, 'maxWallMs must be a non-negative number (got -1)'],
    [Number.NaN, 'maxWallMs must be a non-negative number (got NaN)'],
    ['600000', 'maxWallMs must be a non-negative number (got "600000")'],
  ])('refuses maxWallMs %j with its issue at maxWallMs', async (maxWallMs, message) => {
    const { options } = setup();
    const fixer = new FixLoopOrchestrator(options);
    const { sessionId } = await fixer.start(startInput());
    const error = await refusal(() => fixer.runToCompletion(sessionId, { maxWallMs: maxWallMs as number }));
    expect(error.issues).toEqual([{ code: 'custom', path: ['maxWallMs'], message }]);
  });

  it('runs with a finite, an unbounded and no wall time', async () => {
    for (const run of [{ maxWallMs: 600_000 }, { maxWallMs: Number.POSITIVE_INFINITY }, {}]) {
      const { options } = setup();
      const fixer = new FixLoopOrchestrator(options);
      const { sessionId } = await fixer.start(startInput());
      expect((await fixer.runToCompletion(sessionId, run)).status).toBe('converged');
    }
  });

  it('get refuses a misspelt or wrong auditTail, and reads with a valid one', async () => {
    const { options } = setup();
    const fixer = new FixLoopOrchestrator(options);
    const { sessionId } = await fixer.start(startInput());
    await fixer.runToCompletion(sessionId);
    await expectUnknownKey(() => fixer.get(sessionId, { audit_tail: 2 } as never), ['audit_tail'], 'auditTail');
    for (const auditTail of [-1, 1.5, Number.NaN])
      expect(await refusedPaths(() => fixer.get(sessionId, { auditTail }))).toEqual([['auditTail']]);
    expect((await fixer.get(sessionId, { auditTail: 2 })).auditTail).toHaveLength(2);
    expect((await fixer.get(sessionId, { auditTail: 0 })).auditTail).toHaveLength(0);
    const all = (await fixer.get(sessionId, { auditTail: Number.POSITIVE_INFINITY })).auditTail.length;
    expect(all).toBeGreaterThan(2);
  });
});

describe('createEnvironmentProbe options', () => {
  const commands = createFakeCommandRunner({});
  it.each([
    ['timeoutMS', 'timeoutMs'],
    ['command', 'commands'],
    ['Fs', 'fs'],
  ])('refuses %s, suggesting %s', async (key, suggestion) => {
    const options = { fs: memoryProject(), commands, [key]: 1 } as EnvironmentProbeOptions;
    const error = await expectUnknownKey(() => createEnvironmentProbe(options), [key], suggestion);
    expect(error.message).toContain('createEnvironmentProbe');
  });

  it('refuses wrong values at their paths', async () => {
    expect(await refusedPaths(() => createEnvironmentProbe({ commands } as never))).toEqual([['fs']]);
    const fs = memoryProject();
    expect(await refusedPaths(() => createEnvironmentProbe({ fs, commands: 'sh', timeoutMs: 0 } as never))).toEqual([
      ['commands'],
      ['timeoutMs'],
    ]);
  });

  it('probes with every option given', async () => {
    const found = createFakeCommandRunner([{ match: /^command -v /, respond: { exitCode: 0 } }]);
    const options: Required<EnvironmentProbeOptions> = { fs: memoryProject(), commands: found, timeoutMs: 5_000 };
    const result = await createEnvironmentProbe(options).probe({
      workspace: 'ws',
      workspacePath: 'ws',
      testCommand: 'npm test',
      signal,
    });
    expect(result).toEqual({ missing: [] });
    expect(found.calls.map((call) => call.options.timeoutMs)).toEqual([5_000]);
  });
});

describe('createGitPatchApplier options', () => {
  const commands = createFakeCommandRunner({});
  it('refuses a misspelt option, suggesting the known one', async () => {
    const error = await expectUnknownKey(
      () => createGitPatchApplier({ commands, timeout: 5 } as GitPatchApplierOptions),
      ['timeout'],
      'timeoutMs',
    );
    expect(error.message).toContain('createGitPatchApplier');
  });

  it.each([
    [{ commands, timeoutMs: 0 }, [['timeoutMs']]],
    [{ commands, timeoutMs: 1.5 }, [['timeoutMs']]],
    [{ timeoutMs: 5 }, [['commands']]],
    [{ commands: {} }, [['commands']]],
  ])('refuses %j at its path', async (options, paths) => {
    const error = await refusal(() => createGitPatchApplier(options as GitPatchApplierOptions));
    expect(error.issues.map((issue) => issue.path)).toEqual(paths);
  });

  it('applies with every option given, using its time limit', async () => {
    const git = createFakeCommandRunner([
      { match: /git hash-object --stdin$/, respond: { exitCode: 0, stdoutTail: 'a'.repeat(40) } },
      { match: /git|\[ -L/, respond: { exitCode: 0, stdoutTail: '' } },
    ]);
    const options: Required<GitPatchApplierOptions> = { commands: git, timeoutMs: 7_000 };
    const patch = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n';
    const candidate = { description: 'p', confidence: 0.5, mutationType: 'auto' as const, patch };
    const result = await createGitPatchApplier(options).apply(candidate, { workspace: '/w', signal });
    expect(result.applied).toBe(true);
    expect(git.calls.every((call) => call.options.timeoutMs === 7_000)).toBe(true);
  });
});

describe('the memory double used above', () => {
  it('is a filesystem the options accept', () => {
    expect(() =>
      createEnvironmentProbe({ fs: createMemoryFileSystem(), commands: createFakeCommandRunner() }),
    ).not.toThrow();
  });
});
