import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { makeSumWorkspace, returning } from './sum-workspace.js';

// Real processes: a tiny package whose `node --test` test fails, real git, real commands; a candidate carrying a
// unified diff that fixes it, applied by the git patch applier.

const FIX = returning('return a + b;');
// A diff whose context does not match the file: git apply --check refuses it.
const STALE = FIX.replace(' export function sum(a, b) {', ' export function add(a, b) {');

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'fix-loop-'));
  await makeSumWorkspace(root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function fixer(candidates: FixCandidate[], proposals: string[] = []) {
  const commands = createExecaCommandRunner();
  return new FixLoopOrchestrator({
    fs: createNodeFileSystem(root),
    dir: '.goal-loop/fix-sessions',
    commands,
    candidates: {
      propose: ({ failureOutput }) => {
        proposals.push(failureOutput);
        return candidates;
      },
    },
    applier: createGitPatchApplier({ commands }),
    commandTimeoutMs: 60_000,
  });
}

const start = {
  goal: 'the tests pass',
  goalType: 'tests',
  workspace: 'pkg',
  buildCommand: 'node --check sum.js',
  testCommand: 'node --test sum.test.js',
  maxAttempts: 4,
};

describe('FixLoopOrchestrator on a real workspace', () => {
  it('converges: a stale diff is not applied, the real diff is, and the tests pass', async () => {
    const proposals: string[] = [];
    const orchestrator = fixer(
      [
        { description: 'stale fix', confidence: 0.9, mutationType: 'auto', patch: STALE },
        { description: 'add instead of subtract', confidence: 0.8, mutationType: 'auto', patch: FIX },
      ],
      proposals,
    );
    const { sessionId } = await orchestrator.start(start);
    const result = await orchestrator.runToCompletion(sessionId, { maxWallMs: 120_000 });
    expect(result.status).toBe('converged');
    expect(result.audit.map((entry) => entry.action_type)).toEqual([
      'probe',
      'measure',
      'test_iteration',
      'test_iteration',
    ]);
    expect(result.audit[1]).toMatchObject({ gap_after: 1 });
    const session = await orchestrator.get(sessionId);
    expect(
      session.state.attempts.map((attempt) => [attempt.candidate_description, attempt.outcome, attempt.gap_after]),
    ).toEqual([
      ['stale fix', 'not_applied', 1],
      ['add instead of subtract', 'applied', 0],
    ]);
    expect(session.state.attempts[0]?.detail).toMatch(/git apply --check refused the patch/);
    expect(session.gap).toEqual({
      build: { failing: false, error_count: 0 },
      tests: { failed: 0, passed: 2, total: 2 },
      requirements: { missing: [] },
      gap: 0,
    });
    // The source saw the failing test's output.
    expect(proposals[0]).toContain('not ok 1 - adds');
    expect(await readFile(join(root, 'pkg/sum.js'), 'utf8')).toContain('return a + b;');
    const lines = (await readFile(join(root, '.goal-loop/fix-sessions', sessionId, 'audit.jsonl'), 'utf8')).trimEnd();
    expect(lines.split('\n')).toHaveLength(4);
  });

  it('reads the counts from a JUnit report the test command writes', async () => {
    const orchestrator = fixer([{ description: 'add', confidence: 0.8, mutationType: 'auto', patch: FIX }]);
    const { sessionId } = await orchestrator.start({
      ...start,
      testCommand:
        'node --test --test-reporter=junit --test-reporter-destination=out/report.xml --test-reporter=dot --test-reporter-destination=stdout sum.test.js',
      testReport: { format: 'junit', path: 'out/report.xml' },
    });
    await orchestrator.step(sessionId);
    const measured = await orchestrator.step(sessionId);
    expect(measured.gap?.tests).toEqual({ failed: 1, passed: 1, total: 2 });
    const last = await orchestrator.step(sessionId);
    expect(last).toMatchObject({ status: 'converged', gap: { tests: { failed: 0, passed: 2, total: 2 } } });
  });

  it('escalates infra_gap naming the program when a command is not on PATH', async () => {
    const orchestrator = fixer([]);
    const { sessionId } = await orchestrator.start({ ...start, testCommand: 'no-such-runner-xyz --all' });
    const result = await orchestrator.runToCompletion(sessionId);
    expect(result).toMatchObject({
      status: 'escalated',
      stepsTaken: 1,
      escalation: { escalation_reason: 'infra_gap' },
    });
    expect(result.gap?.requirements.missing).toEqual([
      `program "no-such-runner-xyz" (of the command "no-such-runner-xyz --all") is not on PATH in ${root}/pkg`,
    ]);
  });

  it('escalates infra_gap naming the path when the workspace is missing', async () => {
    const orchestrator = fixer([]);
    const { sessionId } = await orchestrator.start({ ...start, workspace: 'gone' });
    const result = await orchestrator.runToCompletion(sessionId);
    expect(result.escalation?.escalation_reason).toBe('infra_gap');
    expect(result.gap?.requirements.missing[0]).toBe(`workspace "gone" does not exist (looked for ${root}/gone)`);
  });
});
