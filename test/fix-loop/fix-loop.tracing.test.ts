import { afterEach, describe, expect, it } from 'vitest';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { FixLoopOrchestratorOptions } from '../../src/fix-loop/options.js';
import { setOpenTelemetryLoader } from '../../src/ports/open-telemetry.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { idOf, named, parentOf, recorder } from '../ports/span-recorder.js';
import { BUILD, fixingSource, memoryProject, type Simulated, simulate, startInput, TEST } from './helpers.js';

// The orchestrator's spans through the OpenTelemetry SDK's in-memory exporter: session → step → command.

const DIR = '.goal-loop/fix-sessions';

function orchestrator(sim: Simulated, extra: Partial<FixLoopOrchestratorOptions> = {}) {
  return new FixLoopOrchestrator({
    fs: memoryProject(),
    dir: DIR,
    commands: sim.commands,
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
    ...extra,
  });
}

afterEach(() => {
  setOpenTelemetryLoader(undefined);
});

describe('FixLoopOrchestrator spans', () => {
  it('runToCompletion: one session span, a step span per step, a command span per command under its step', async () => {
    const { tracer, spans } = recorder();
    const sim = simulate(['a'], 1);
    const fixer = orchestrator(sim, { tracer });
    const { sessionId } = await fixer.start(startInput());
    const result = await fixer.runToCompletion(sessionId);
    expect(result.status).toBe('converged');

    const all = spans();
    const sessions = named(all, 'fix_loop.session');
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session?.parentSpanContext).toBeUndefined();
    expect(session?.attributes).toMatchObject({
      'fix_loop.session_id': sessionId,
      'fix_loop.mode': 'run',
      'fix_loop.status': 'converged',
      'fix_loop.gap': 0,
      'fix_loop.steps': result.stepsTaken,
    });

    const steps = named(all, 'fix_loop.step');
    expect(steps).toHaveLength(result.stepsTaken);
    for (const step of steps) expect(parentOf(step)).toBe(idOf(session));
    expect(steps.map((step) => step.attributes['fix_loop.action'])).toEqual(
      result.audit.map((entry) => entry.action_type),
    );
    expect(steps.map((step) => step.attributes['fix_loop.step_index'])).toEqual(steps.map((_, index) => index));
    expect(steps.at(-1)?.attributes).toMatchObject({ 'fix_loop.status': 'converged', 'fix_loop.gap': 0 });
    expect(steps.find((step) => step.attributes['fix_loop.action'] === 'build_iteration')?.attributes).toMatchObject({
      'fix_loop.attempt_outcome': 'applied',
    });

    const commands = named(all, 'fix_loop.command');
    expect(commands.length).toBe(sim.commands.calls.length);
    const stepIds = new Set(steps.map(idOf));
    for (const command of commands) expect(stepIds.has(parentOf(command))).toBe(true);
    // The first build fails (one error): an ERROR span with the exit code.
    const [firstBuild] = commands.filter((span) => span.attributes['fix_loop.command'] === BUILD);
    expect(firstBuild?.status).toEqual({ code: 2, message: 'the command exited with code 2' });
    expect(firstBuild?.attributes['fix_loop.exit_code']).toBe(2);
    const lastTest = commands.filter((span) => span.attributes['fix_loop.command'] === TEST).at(-1);
    expect(lastTest?.status.code).toBe(0);
  });

  it('step(): a session span per call holding one step', async () => {
    const { tracer, spans } = recorder();
    const fixer = orchestrator(simulate(['a']), { tracer });
    const { sessionId } = await fixer.start(startInput());
    await fixer.step(sessionId);
    await fixer.step(sessionId);
    const sessions = named(spans(), 'fix_loop.session');
    expect(sessions.map((span) => span.attributes['fix_loop.mode'])).toEqual(['step', 'step']);
    expect(named(spans(), 'fix_loop.step').map(parentOf)).toEqual(sessions.map(idOf));
  });

  it('a step that rejects (unknown session) ends its session span as an error', async () => {
    const { tracer, spans } = recorder();
    const fixer = orchestrator(simulate([]), { tracer });
    await expect(fixer.step('nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(named(spans(), 'fix_loop.session')[0]?.status.code).toBe(2);
  });

  it('with no tracer and the API missing, converges as with one', async () => {
    setOpenTelemetryLoader(() => Promise.reject(new Error("Cannot find module '@opentelemetry/api'")));
    const traced = orchestrator(simulate(['a', 'b']), { tracer: recorder().tracer });
    const plain = orchestrator(simulate(['a', 'b']));
    const runOf = async (fixer: FixLoopOrchestrator) => {
      const { sessionId } = await fixer.start(startInput());
      return fixer.runToCompletion(sessionId);
    };
    expect(await runOf(plain)).toEqual(await runOf(traced));
  });
});
