import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/fix-loop/contracts/audit.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateApplier, CandidateSource, EnvironmentProbe } from '../../src/fix-loop/host-ports.js';
import type { FixLoopOrchestratorOptions } from '../../src/fix-loop/options.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { fixingSource, memoryProject, simulate, startInput, TEST } from './helpers.js';

// Host calls that never settle (and ignore their signal) cannot hold a step, nor runToCompletion, for ever.

const kinds = (entries: readonly AuditEntry[]) =>
  entries.map((entry) => `${entry.step_index}:${entry.action_type}${entry.interrupted === true ? '!' : ''}`);

// A host function that never settles; `called` resolves with the signal it was given.
function hanging() {
  let reached: (signal: AbortSignal) => void = () => {};
  const called = new Promise<AbortSignal>((resolve) => (reached = resolve));
  const call = ({ signal }: { signal: AbortSignal }) => {
    reached(signal);
    return new Promise<never>(() => {});
  };
  return { called, call };
}

function orchestrator(clock: ManualClock, extra: Partial<FixLoopOrchestratorOptions> = {}) {
  const sim = simulate(['a']);
  const fixer = new FixLoopOrchestrator({
    fs: memoryProject(),
    dir: 'sessions',
    commands: sim.commands,
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock,
    ...extra,
  });
  return { sim, fixer };
}

// Starts a session and takes its probe and measure steps.
async function measured(fixer: FixLoopOrchestrator): Promise<string> {
  const { sessionId } = await fixer.start(startInput({ buildCommand: undefined }));
  await fixer.step(sessionId);
  await fixer.step(sessionId);
  return sessionId;
}

describe('fix-loop host call time limit (hostCallTimeoutMs)', () => {
  it('a candidate source that never settles fails at the limit, its signal aborted', async () => {
    const clock = createManualClock(0);
    const source = hanging();
    const candidates: CandidateSource = { propose: (input) => source.call(input) };
    const { fixer } = orchestrator(clock, { candidates, hostCallTimeoutMs: 5_000 });
    const sessionId = await measured(fixer);
    const step = fixer.step(sessionId);
    const signal = await source.called;
    clock.advance(5_000);
    expect(await step).toMatchObject({ action: 'test_iteration', status: 'running' });
    expect(signal.aborted).toBe(true);
    expect((await fixer.get(sessionId)).state.attempts[0]?.detail).toContain(
      'the candidate source timed out after 5000 ms',
    );
  });

  it('an applier that never settles is an attempt not applied, timed out', async () => {
    const clock = createManualClock(0);
    const apply = hanging();
    const applier: CandidateApplier = { apply: (_, context) => apply.call(context) };
    const { fixer } = orchestrator(clock, { applier, hostCallTimeoutMs: 5_000 });
    const sessionId = await measured(fixer);
    const step = fixer.step(sessionId);
    const signal = await apply.called;
    clock.advance(5_000);
    await step;
    expect(signal.aborted).toBe(true);
    expect((await fixer.get(sessionId)).state.attempts[0]).toMatchObject({
      candidate_description: 'fix a',
      detail: expect.stringContaining('the applier timed out after 5000 ms'),
    });
  });

  it('a probe that never settles is a missing requirement: the session escalates infra_gap', async () => {
    const clock = createManualClock(0);
    const probing = hanging();
    const probe: EnvironmentProbe = { probe: (input) => probing.call(input) };
    const { fixer } = orchestrator(clock, { probe, hostCallTimeoutMs: 5_000 });
    const { sessionId } = await fixer.start(startInput());
    const step = fixer.step(sessionId);
    await probing.called;
    clock.advance(5_000);
    expect(await step).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'infra_gap' } });
    expect((await fixer.get(sessionId)).gap?.requirements.missing).toEqual([
      'the environment probe timed out after 5000 ms',
    ]);
  });

  it('the orchestrator signal aborting a call that never settles rejects the step with its reason', async () => {
    const clock = createManualClock(0);
    const source = hanging();
    const host = new AbortController();
    const candidates: CandidateSource = { propose: (input) => source.call(input) };
    const { fixer } = orchestrator(clock, { candidates, signal: host.signal });
    const sessionId = await measured(fixer);
    const step = fixer.step(sessionId);
    await source.called;
    host.abort(new Error('host shut down'));
    await expect(step).rejects.toThrow('host shut down');
  });

  it('is validated: a limit that is not a positive integer is INVALID_OPTIONS at its path', () => {
    const clock = createManualClock(0);
    expect(() => orchestrator(clock, { hostCallTimeoutMs: 0 })).toThrow(/\$\.hostCallTimeoutMs/);
    expect(() => orchestrator(clock, { hostCallTimeoutMs: 1.5 })).toThrow(/\$\.hostCallTimeoutMs/);
  });
});

describe('runToCompletion maxWallMs bounds the step in flight', () => {
  it('a hanging candidate source is cut off at the wall time: interrupted, then wall_time', async () => {
    const clock = createManualClock(0);
    const source = hanging();
    const candidates: CandidateSource = { propose: (input) => source.call(input) };
    const { fixer } = orchestrator(clock, { candidates });
    const { sessionId } = await fixer.start(startInput({ buildCommand: undefined }));
    const run = fixer.runToCompletion(sessionId, { maxWallMs: 10_000 });
    const signal = await source.called;
    clock.advance(10_000);
    const result = await run;
    expect(signal.aborted).toBe(true);
    expect(result).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'wall_time' } });
    expect(kinds(result.audit)).toEqual(['0:probe', '1:measure', '2:test_iteration!', '3:escalate']);
    expect(result.escalation?.detail).toMatch(/spent during step 3, which was cut off/);
    expect(result.stepsTaken).toBe(4);
  });

  it('a test command still running at the wall time is stopped through its signal', async () => {
    const clock = createManualClock(0);
    let stopped: AbortSignal | undefined;
    const commands = createFakeCommandRunner([
      { match: /^command -v /, respond: { exitCode: 0 } },
      {
        match: TEST,
        respond: (_, options) =>
          new Promise((resolve) => {
            stopped = options.signal;
            clock.advance(10_000);
            options.signal?.addEventListener('abort', () => resolve({ exitCode: null }), { once: true });
          }),
      },
    ]);
    const { fixer } = orchestrator(clock, { commands });
    const { sessionId } = await fixer.start(startInput({ buildCommand: undefined }));
    const result = await fixer.runToCompletion(sessionId, { maxWallMs: 10_000 });
    expect(stopped?.aborted).toBe(true);
    expect(kinds(result.audit)).toEqual(['0:probe', '1:measure!', '2:escalate']);
    expect(result.escalation?.escalation_reason).toBe('wall_time');
  });

  it('without a wall time a step is bounded by the host call limit alone', async () => {
    const clock = createManualClock(0);
    const source = hanging();
    const candidates: CandidateSource = { propose: (input) => source.call(input) };
    const { fixer } = orchestrator(clock, { candidates, hostCallTimeoutMs: 5_000 });
    const { sessionId } = await fixer.start(startInput({ buildCommand: undefined, maxAttempts: 1 }));
    const run = fixer.runToCompletion(sessionId);
    await source.called;
    clock.advance(5_000);
    const result = await run;
    expect(result.status).toBe('escalated');
    expect((await fixer.get(sessionId)).state.attempts[0]?.detail).toContain(
      'the candidate source timed out after 5000 ms',
    );
  });
});
