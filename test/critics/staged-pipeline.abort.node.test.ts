import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CriticInput } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { critic, DIR, generator, type HostCall } from './helpers.js';

// On the Node filesystem with real timers: a critic that never settles and ignores its signal cannot keep run()
// pending, nor the execution's lock beating, once the pipeline's signal fires or its time limit passes.

const spec = { feature: 'search' };

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'critics-abort-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// A critic that records its call, then never settles and ignores its signal; `called` resolves on its first call.
function hangingCritic(calls: HostCall[]) {
  let reached: () => void = () => {};
  const called = new Promise<void>((resolve) => (reached = resolve));
  const judge = (input: CriticInput) => {
    calls.push({ kind: 'judge', stage: input.stageId, attempt: input.attempt });
    reached();
    return new Promise<never>(() => {});
  };
  return { called, judge };
}

describe('StagedPipeline on the Node filesystem: a critic that never settles', () => {
  it('an abort settles run() promptly and releases the lock; another pipeline resumes, judging once more', async () => {
    const fs = createNodeFileSystem(root);
    const calls: HostCall[] = [];
    const hanging = hangingCritic(calls);
    const controller = new AbortController();
    const first = new StagedPipeline({
      fs,
      dir: DIR,
      signal: controller.signal,
      lockTimeoutMs: 600,
      stages: [{ id: 'plan', generate: generator(calls), critic: hanging.judge }],
    });
    const run = first.run({ executionId: 'e1', spec });
    await hanging.called;
    // Past a heartbeat or two, then the host aborts.
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort(new Error('host shut down'));
    const outcome = await Promise.race([
      run.then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still pending 500 ms after the abort'), 500)),
    ]);
    expect(outcome).toBe('host shut down');
    expect((await readdir(join(root, DIR, 'e1'))).filter((name) => name.includes('lock'))).toEqual([]);

    const second = new StagedPipeline({
      fs,
      dir: DIR,
      lockTimeoutMs: 600,
      stages: [{ id: 'plan', generate: generator(calls), critic: critic(calls, () => ({ decision: 'accept' })) }],
    });
    expect(await second.run({ executionId: 'e1', spec })).toMatchObject({ status: 'completed', attempts: { plan: 1 } });
    expect(calls).toEqual([
      { kind: 'generate', stage: 'plan', attempt: 1 },
      { kind: 'judge', stage: 'plan', attempt: 1 },
      { kind: 'judge', stage: 'plan', attempt: 1 },
    ]);
  });

  it('hostCallTimeoutMs escalates critic_failed with the reason, and the lock is released', async () => {
    const fs = createNodeFileSystem(root);
    const hanging = hangingCritic([]);
    const pipeline = new StagedPipeline({
      fs,
      dir: DIR,
      hostCallTimeoutMs: 150,
      stages: [{ id: 'plan', generate: generator([]), critic: hanging.judge }],
    });
    const started = Date.now();
    const result = await pipeline.run({ executionId: 'e2', spec });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(result).toMatchObject({
      status: 'escalated',
      escalation: 'critic_failed',
      reason: expect.stringContaining('the plan critic timed out after 150 ms'),
    });
    expect((await readdir(join(root, DIR, 'e2'))).filter((name) => name.includes('lock'))).toEqual([]);
  });
});
