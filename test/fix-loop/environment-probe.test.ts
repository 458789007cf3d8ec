import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEnvironmentProbe } from '../../src/fix-loop/environment-probe.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

const signal = new AbortController().signal;
const ON_PATH = createFakeCommandRunner([{ match: /^command -v /, respond: { exitCode: 0 } }]);
const WITH_DEPENDENCIES = '{"name":"x","dependencies":{"zod":"^4"}}';

// The probe's answer for the workspace `packages/x` (or another) of this filesystem.
async function probe(fs: FileSystem, workspace = 'packages/x'): Promise<readonly string[]> {
  const result = await createEnvironmentProbe({ fs, commands: ON_PATH }).probe({
    workspace,
    workspacePath: workspace,
    buildCommand: 'npm run build',
    testCommand: 'npm test',
    signal,
  });
  return result.missing;
}

const memory = (files: Record<string, string>, root = '/project') => createMemoryFileSystem({ root, files });

describe('the default environment probe looks for node_modules as Node resolves modules', () => {
  it('a monorepo that hoists its dependencies to the root is verified', async () => {
    const fs = memory({ 'packages/x/package.json': WITH_DEPENDENCIES, 'node_modules/zod/package.json': '{}' });
    expect(await probe(fs)).toEqual([]);
  });

  it('node_modules in the workspace, or in a folder between it and the root, counts too', async () => {
    expect(
      await probe(memory({ 'packages/x/package.json': WITH_DEPENDENCIES, 'packages/x/node_modules/.keep': '' })),
    ).toEqual([]);
    expect(
      await probe(memory({ 'packages/x/package.json': WITH_DEPENDENCIES, 'packages/node_modules/.keep': '' })),
    ).toEqual([]);
  });

  it('node_modules above the FileSystem root counts (the workspace is the root of a package inside a repository)', async () => {
    const fs = memory({ 'package.json': WITH_DEPENDENCIES, '../node_modules/zod/package.json': '{}' }, '/repo/app');
    expect(await probe(fs, '.')).toEqual([]);
  });

  it('none in the workspace nor above it: one missing requirement naming the workspace', async () => {
    const missing = [
      'node_modules is missing in /project/packages/x and every folder above it, though its package.json declares dependencies (run npm ci there)',
    ];
    expect(await probe(memory({ 'packages/x/package.json': WITH_DEPENDENCIES }))).toEqual(missing);
    // Beside the workspace is not above it; a file named node_modules is no folder.
    const beside = { 'packages/y/node_modules/.keep': '', 'packages/node_modules': 'not a folder' };
    expect(await probe(memory({ 'packages/x/package.json': WITH_DEPENDENCIES, ...beside }))).toEqual(missing);
  });

  it('a package.json without dependencies needs no node_modules', async () => {
    expect(await probe(memory({ 'packages/x/package.json': '{"name":"x","dependencies":{}}' }))).toEqual([]);
  });

  it('an orchestrator on a hoisted monorepo verifies its environment and goes on to measure', async () => {
    const fs = memory({ 'packages/x/package.json': WITH_DEPENDENCIES, 'node_modules/zod/package.json': '{}' });
    const fixer = new FixLoopOrchestrator({
      fs,
      dir: 'sessions',
      commands: ON_PATH,
      candidates: { propose: () => [] },
      applier: { apply: async () => ({ applied: false, detail: 'never' }) },
      clock: createManualClock(0),
    });
    const { sessionId } = await fixer.start({
      goal: 'tests pass',
      goalType: 'tests',
      workspace: 'packages/x',
      testCommand: 'npm test',
    });
    expect(await fixer.step(sessionId)).toMatchObject({ action: 'probe', status: 'running' });
    expect((await fixer.get(sessionId)).state.environment_verified).toBe(true);
  });
});

describe('the default environment probe on a real filesystem', () => {
  let root = '';
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds node_modules hoisted two folders above the workspace', async () => {
    root = await mkdtemp(join(tmpdir(), 'probe-'));
    await mkdir(join(root, 'packages', 'x'), { recursive: true });
    await writeFile(join(root, 'packages', 'x', 'package.json'), WITH_DEPENDENCIES);
    const fs = createNodeFileSystem(root);
    // Without node_modules the workspace itself is named (a stray one in a folder above the tmp dir would hide it).
    const missing = await probe(fs);
    if (missing.length > 0) expect(missing[0]).toContain(`${fs.root}/packages/x and every folder above it`);
    await mkdir(join(root, 'node_modules', 'zod'), { recursive: true });
    expect(await probe(fs)).toEqual([]);
  });
});
