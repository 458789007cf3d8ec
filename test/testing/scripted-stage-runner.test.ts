import { describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import type { StageContextOf, StageRunReason } from '../../src/ports/stage-runner.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';

// Builds a stage context for one call.
function context(iteration: number, overrides: { reason?: StageRunReason; signal?: AbortSignal } = {}): StageContextOf {
  return {
    runDir: 'runs/r1',
    iteration,
    reason: overrides.reason ?? { kind: 'initial' },
    previousEvaluation: null,
    fs: createMemoryFileSystem(),
    signal: overrides.signal ?? new AbortController().signal,
  };
}

describe('createScriptedStageRunner', () => {
  it('consumes one step per call, repeats the last one, and records calls', async () => {
    const runner = createScriptedStageRunner({
      plan: { status: 'passed' },
      code: [
        { status: 'failed', detail: 'tests red' },
        { status: 'passed', costUsd: 0.5 },
      ],
    });
    const retry: StageRunReason = { kind: 'retry', reason: 'tests red', criteria: ['unit'] };
    expect(await runner.run('plan', context(1))).toEqual({ status: 'passed' });
    expect(await runner.run('code', context(1))).toEqual({ status: 'failed', detail: 'tests red' });
    expect(await runner.run('code', context(2, { reason: retry }))).toEqual({ status: 'passed', costUsd: 0.5 });
    expect(await runner.run('code', context(3))).toEqual({ status: 'passed', costUsd: 0.5 });
    expect(runner.stageIds()).toEqual(['plan', 'code', 'code', 'code']);
    expect(runner.calls[2]).toEqual({ stageId: 'code', iteration: 2, reason: retry });
  });

  it('runs function steps with the context, so they can write artifacts', async () => {
    const runner = createScriptedStageRunner({
      docs: async (ctx, stageId) => {
        await ctx.fs.writeText(`${ctx.runDir}/${stageId}.json`, '{}');
        return { status: 'passed', artifacts: [`${ctx.runDir}/${stageId}.json`] };
      },
    });
    const ctx = context(1);
    expect(await runner.run('docs', ctx)).toEqual({ status: 'passed', artifacts: ['runs/r1/docs.json'] });
    expect(await ctx.fs.readText('runs/r1/docs.json')).toBe('{}');
  });

  it('rejects an unscripted stage unless a fallback is given', async () => {
    await expect(createScriptedStageRunner({}).run('ghost', context(1))).rejects.toSatisfy((error: unknown) =>
      isGoalLoopError(error, 'INVALID_OPTIONS'),
    );
    expect(await createScriptedStageRunner({}, { fallback: { status: 'blocked' } }).run('ghost', context(1))).toEqual({
      status: 'blocked',
    });
  });

  it('rejects with the signal reason when aborted before or during a step, without consuming a step early', async () => {
    const reason = new Error('aborted');
    const runner = createScriptedStageRunner({
      slow: () => new Promise(() => undefined),
      fast: [{ status: 'failed' }, { status: 'passed' }],
    });
    await expect(runner.run('fast', context(1, { signal: AbortSignal.abort(reason) }))).rejects.toBe(reason);
    expect(await runner.run('fast', context(1))).toEqual({ status: 'failed' });
    const controller = new AbortController();
    const pending = runner.run('slow', context(1, { signal: controller.signal }));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(runner.calls).toHaveLength(3);
  });
});
