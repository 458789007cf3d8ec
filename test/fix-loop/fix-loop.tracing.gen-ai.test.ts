import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { idOf, named, recorder } from '../ports/span-recorder.js';
import { BUILD, fixingSource, memoryProject, simulate, startInput } from './helpers.js';

// The opt-in GenAI attributes of the orchestrator's spans: session → step → command.

afterEach(() => {
  context.disable();
});

// Converges one session; `active` gets the id of OpenTelemetry's active span at each proposal.
async function converge(genAiAttributes: boolean, active: (string | undefined)[] = []) {
  const { tracer, spans } = recorder();
  const sim = simulate(['a'], 1);
  const source = fixingSource(sim);
  const fixer = new FixLoopOrchestrator({
    fs: memoryProject(),
    dir: '.goal-loop/fix-sessions',
    commands: sim.commands,
    candidates: {
      propose: (input) => {
        active.push(trace.getActiveSpan()?.spanContext().spanId);
        return source.propose(input);
      },
    },
    applier: sim.applier,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
    tracer,
    genAiAttributes,
  });
  const { sessionId } = await fixer.start(startInput());
  await fixer.runToCompletion(sessionId);
  return spans();
}

describe('FixLoopOrchestrator GenAI attributes', () => {
  it('are off by default', async () => {
    for (const span of await converge(false))
      expect(Object.keys(span.attributes).filter((key) => key.startsWith('gen_ai.') || key === 'error.type')).toEqual(
        [],
      );
  });

  it('the session is invoke_workflow, each step invoke_agent, each command execute_tool named by its command line', async () => {
    const spans = await converge(true);
    expect(named(spans, 'fix_loop.session')[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.agent.name': 'fix-loop',
    });
    for (const step of named(spans, 'fix_loop.step'))
      expect(step.attributes['gen_ai.operation.name']).toBe('invoke_agent');
    const commands = named(spans, 'fix_loop.command');
    for (const command of commands)
      expect(command.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': command.attributes['fix_loop.command'],
      });
    // The first build fails with exit code 2: no error was thrown, so its type is the conventions' _OTHER.
    const [firstBuild] = commands.filter((span) => span.attributes['fix_loop.command'] === BUILD);
    expect(firstBuild?.status.code).toBe(2);
    expect(firstBuild?.attributes['error.type']).toBe('_OTHER');
  });

  it("the candidate source runs with its step's span active, so the host's model spans nest under the step", async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const active: (string | undefined)[] = [];
    const steps = new Set(named(await converge(false, active), 'fix_loop.step').map(idOf));
    expect(active.length).toBeGreaterThan(0);
    for (const id of active) expect(steps.has(id)).toBe(true);
  });
});
