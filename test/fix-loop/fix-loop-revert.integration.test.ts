import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import type { KeepPolicy } from '../../src/fix-loop/core/keep.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { makeSumWorkspace, returning, SUM } from './sum-workspace.js';
import { workspaceTree } from './workspace-tree.js';

const run = promisify(execFile);

// Alternatives against one base on a real git workspace: a plausible wrong diff (ranked first) and the right one,
// both made against the original file. Kept, the wrong one stops the right one from applying; reverted, it does not.

// Still fails "adds" (|2 - 3| is 1) and passes "adds zero": the gap stays at 1.
const WRONG: FixCandidate = {
  description: 'Take the absolute difference',
  confidence: 0.9,
  mutationType: 'auto',
  patch: returning('return Math.abs(a - b);'),
};
const RIGHT: FixCandidate = {
  description: 'Add instead of subtract',
  confidence: 0.8,
  mutationType: 'auto',
  patch: returning('return a + b;'),
};

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'fix-loop-revert-'));
  await makeSumWorkspace(root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function fixer(keep?: KeepPolicy) {
  const commands = createExecaCommandRunner();
  return new FixLoopOrchestrator({
    fs: createNodeFileSystem(root),
    dir: '.goal-loop/fix-sessions',
    commands,
    candidates: { propose: () => [WRONG, RIGHT] },
    applier: createGitPatchApplier({ commands }),
    commandTimeoutMs: 60_000,
    ...(keep === undefined ? {} : { keep }),
  });
}

const start = {
  goal: 'the tests pass',
  goalType: 'tests',
  workspace: 'pkg',
  testCommand: 'node --test sum.test.js',
  maxAttempts: 5,
};

describe('wrong-then-right alternatives on a real git workspace', () => {
  it("keep 'improving' (the default): the wrong fix is reverted, the right one applies, converged in two attempts", async () => {
    const orchestrator = fixer();
    const { sessionId } = await orchestrator.start(start);
    const result = await orchestrator.runToCompletion(sessionId, { maxWallMs: 120_000 });
    expect(result.status).toBe('converged');
    const { state } = await orchestrator.get(sessionId);
    expect(state.attempts.map((a) => [a.candidate_description, a.outcome, a.gap_before, a.gap_after])).toEqual([
      ['Take the absolute difference', 'reverted', 1, 1],
      ['Add instead of subtract', 'applied', 1, 0],
    ]);
    // Only the right change is in the workspace.
    expect(await readFile(join(root, 'pkg/sum.js'), 'utf8')).toBe(SUM.replace('a - b', 'a + b'));
    const { stdout } = await run('git', ['diff', '--stat'], { cwd: join(root, 'pkg') });
    expect(stdout).toMatch(/sum\.js \| 2 \+-/);
    // The audit log says what the workspace holds after each step.
    expect(result.audit.map((entry) => [entry.action_type, entry.workspace_holds])).toEqual([
      ['probe', []],
      ['measure', []],
      ['test_iteration', []],
      ['test_iteration', [1]],
    ]);
    expect(result.audit[2]?.action_description).toMatch(/the fix was reverted: git apply --reverse undid the patch/);
  });

  it("keep 'all': the wrong fix stays, the right one no longer applies, and the session escalates", async () => {
    const orchestrator = fixer('all');
    const { sessionId } = await orchestrator.start(start);
    const result = await orchestrator.runToCompletion(sessionId, { maxWallMs: 120_000 });
    expect(result).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'no_progress' } });
    expect(result.escalation?.attempts_summary.map((a) => a.outcome)).toEqual(['applied', 'not_applied']);
    expect(result.escalation?.applied_attempts).toEqual([0]);
    expect(await readFile(join(root, 'pkg/sum.js'), 'utf8')).toContain('Math.abs(a - b)');
  });

  it('a revert that cannot be checked escalates revert_failed, and the report says what the workspace holds', async () => {
    const commands = createExecaCommandRunner();
    const git = createGitPatchApplier({ commands });
    const orchestrator = new FixLoopOrchestrator({
      fs: createNodeFileSystem(root),
      dir: '.goal-loop/fix-sessions',
      commands,
      candidates: { propose: () => [WRONG] },
      // The workspace changes under the session after the apply: the reverse patch no longer applies.
      applier: {
        apply: async (candidate, context) => {
          const applied = await git.apply(candidate, context);
          await writeFile(join(root, 'pkg/sum.js'), 'export const sum = () => 0;\n');
          return applied;
        },
        revert: (candidate, context) => git.revert?.(candidate, context) ?? Promise.reject(new Error('no revert')),
      },
      commandTimeoutMs: 60_000,
    });
    const { sessionId } = await orchestrator.start(start);
    const result = await orchestrator.runToCompletion(sessionId, { maxWallMs: 120_000 });
    expect(result).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'revert_failed' } });
    expect(result.escalation?.detail).toMatch(/could not be reverted: git apply --reverse --check refused/);
    expect(result.escalation?.applied_attempts).toEqual([0]);
    expect(result.audit.at(-1)?.workspace_holds).toEqual([0]);
  });
});

describe('the git applier reverts exactly what it applied', () => {
  const commands = createExecaCommandRunner();
  const applier = createGitPatchApplier({ commands });
  const signal = new AbortController().signal;

  it('restores the workspace tree byte for byte, a new and a deleted file included', async () => {
    const workspace = join(root, 'pkg');
    const before = await workspaceTree(workspace);
    const patch = [
      RIGHT.patch,
      'diff --git a/new.txt b/new.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1 @@',
      '+fresh',
      'diff --git a/package.json b/package.json',
      'deleted file mode 100644',
      '--- a/package.json',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-{ "name": "pkg", "type": "module" }',
      '',
    ].join('\n');
    const candidate = { ...RIGHT, patch };
    const applied = await applier.apply(candidate, { workspace, signal });
    expect(applied).toMatchObject({ applied: true });
    expect(await workspaceTree(workspace)).not.toEqual(before);
    const reverted = await applier.revert?.(candidate, { workspace, signal, undo: applied.undo });
    expect(reverted).toMatchObject({ reverted: true });
    expect(await workspaceTree(workspace)).toEqual(before);
  });

  it('refuses to call a revert done when the files differ from the record, or when there is no record', async () => {
    const workspace = join(root, 'pkg');
    const applied = await applier.apply(RIGHT, { workspace, signal });
    const forged = await applier.revert?.(RIGHT, { workspace, signal, undo: { before: 'f'.repeat(40) } });
    expect(forged).toEqual({
      reverted: false,
      detail: 'git apply --reverse ran, but the files the patch touches differ from what they held before it',
    });
    expect((await applier.revert?.(RIGHT, { workspace, signal, undo: null }))?.reverted).toBe(false);
    expect(applied.applied).toBe(true);
  });
});
