import { describe, expect, it } from 'vitest';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { FixLoopOrchestratorOptions } from '../../src/fix-loop/options.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { jsonLines } from '../runtime/helpers.js';
import { fixingSource, memoryProject, type Simulated, simulate, startInput } from './helpers.js';

const DIR = '.goal-loop/fix-sessions';

function orchestrator(sim: Simulated, extra: Partial<FixLoopOrchestratorOptions> = {}) {
  const fs = extra.fs ?? memoryProject();
  const fixer = new FixLoopOrchestrator({
    fs,
    dir: DIR,
    commands: sim.commands,
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
    ...extra,
  });
  return { fs, fixer };
}

describe('FixLoopOrchestrator on a simulated workspace', () => {
  it('starts a pending session with an id from the clock and a counter', async () => {
    const { fixer } = orchestrator(simulate(['a']));
    const first = await fixer.start(startInput());
    const second = await fixer.start(startInput());
    expect(first).toEqual({ sessionId: 'fix-20260101T000000000Z-1', status: 'pending', issues: [] });
    expect(second.sessionId).toBe('fix-20260101T000000000Z-2');
    expect((await fixer.get(first.sessionId)).status).toBe('pending');
  });

  it('steps probe, measure, one test iteration per failing test, and converges', async () => {
    const sim = simulate(['a', 'b']);
    const { fs, fixer } = orchestrator(sim);
    const { sessionId } = await fixer.start(startInput());
    const probe = await fixer.step(sessionId);
    expect(probe).toMatchObject({ stepIndex: 0, action: 'probe', status: 'running', gap: null });
    const measure = await fixer.step(sessionId);
    expect(measure).toMatchObject({ stepIndex: 1, action: 'measure', status: 'running' });
    expect(measure.gap).toEqual({
      build: { failing: false, error_count: 0 },
      tests: { failed: 2, passed: 3, total: 5 },
      requirements: { missing: [] },
      gap: 2,
    });
    const first = await fixer.step(sessionId);
    expect(first).toMatchObject({ action: 'test_iteration', status: 'running', attempt: { outcome: 'applied' } });
    expect(first.candidates).toHaveLength(4);
    const second = await fixer.step(sessionId);
    expect(second).toMatchObject({ action: 'test_iteration', status: 'converged', gap: { gap: 0 } });
    expect(sim.applied).toEqual(['fix a', 'fix b']);
    const audit = await jsonLines(fs, `${DIR}/${sessionId}/audit.jsonl`);
    expect(audit.map((entry) => (entry as { action_type: string }).action_type)).toEqual([
      'probe',
      'measure',
      'test_iteration',
      'test_iteration',
    ]);
    expect(audit[3]).toMatchObject({
      candidate_applied: 'fix b',
      gap_before: 1,
      gap_after: 0,
      session_status_after: 'converged',
    });
  });

  it('fixes the build before the tests', async () => {
    const sim = simulate(['a'], 2);
    const { fixer } = orchestrator(sim);
    const { sessionId } = await fixer.start(startInput());
    const result = await fixer.runToCompletion(sessionId);
    expect(result.status).toBe('converged');
    expect(sim.applied).toEqual(['fix the build', 'fix a']);
    expect(result.audit.map((entry) => entry.action_type)).toEqual([
      'probe',
      'measure',
      'build_iteration',
      'test_iteration',
    ]);
    expect(result.audit[1]?.gap_after).toBe(3);
  });

  it('refuses to step a converged session with SESSION_ENDED, and an unknown one with SESSION_NOT_FOUND', async () => {
    const { fixer } = orchestrator(simulate([]));
    const { sessionId } = await fixer.start(startInput());
    const run = await fixer.runToCompletion(sessionId);
    expect(run).toMatchObject({ status: 'converged', stepsTaken: 2 });
    await expect(fixer.step(sessionId)).rejects.toMatchObject({ name: 'GoalLoopError', code: 'SESSION_ENDED' });
    await expect(fixer.step('nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(await fixer.runToCompletion(sessionId)).toMatchObject({ status: 'converged', stepsTaken: 0 });
  });
});
