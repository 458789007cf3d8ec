import { describe, expect, it } from 'vitest';
import type { Critic, Generator } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { DIR, spec } from './helpers.js';

// What a host returns is read whole: a key the contract does not know is refused with the key it most likely
// misspells (a critic's `issue` for `issues` lost its feedback, a generator's `cost_usd` its cost), a non-JSON output
// names where it is, and a call that spent is charged even when what it returned cannot be used.

const fs = createMemoryFileSystem();
let count = 0;
const run = (generate: Generator, critic?: Critic) =>
  new StagedPipeline({
    fs,
    dir: DIR,
    stages: [critic === undefined ? { id: 'plan', generate } : { id: 'plan', generate, critic }],
    clock: createManualClock(0),
  }).run({ executionId: `e${count++}`, spec });
const answer = (value: unknown) => (async () => value) as Generator & Critic;
const plan = answer({ output: { steps: 3 }, costUsd: 1 });

describe('StagedPipeline: host replies are read whole', () => {
  it.each([
    [{ decision: 'retry', issue: [{ issue: 'no tests' }] }, '$.issue: unknown key `issue`; did you mean `issues`?'],
    [{ decision: 'route_back', route_to: 'plan' }, '$.route_to: unknown key `route_to`; did you mean `routeTo`?'],
    [
      { decision: 'accept', issues: [], decison: 'escalate' },
      '$.decison: unknown key `decison`; did you mean `decision`?',
    ],
  ])('a critic reply %j is an invalid decision naming the key', async (reply, named) => {
    const result = await run(plan, answer(reply));
    expect(result).toMatchObject({ status: 'escalated', escalation: 'invalid_decision' });
    expect(result.reason).toBe(`the plan critic returned a malformed decision: ${named}`);
  });

  it('a generator result with a misspelt cost is refused naming it, not run on at no cost', async () => {
    const result = await run(answer({ output: 'plan', cost_usd: 3 }));
    expect(result).toMatchObject({
      escalation: 'generator_failed',
      reason:
        'the plan generator returned a malformed result: $.cost_usd: unknown key `cost_usd`; did you mean `costUsd`?',
    });
  });

  it.each([
    [{ steps: [1, Number.NaN] }, '$.output.steps[1]: NaN is not JSON'],
    [{ at: new Date(0) }, '$.output.at: a Date is not JSON'],
    [{ deep: { run: () => 1 } }, '$.output.deep.run: a function is not JSON'],
  ])('an output that is not JSON (%j) is refused where it is not, and its cost is charged', async (output, named) => {
    const result = await run(answer({ output, costUsd: 2 }));
    expect(result).toMatchObject({ escalation: 'generator_failed', spentUsd: 2 });
    expect(result.reason).toBe(`the plan generator returned a malformed result: ${named}`);
    expect(result.trace[0]).toMatchObject({ kind: 'generated', costUsd: 2, outputHash: null });
  });

  it('a cost of Infinity is refused naming $.costUsd and charges nothing, from a generator or a critic', async () => {
    const generated = await run(answer({ output: 'plan', costUsd: Number.POSITIVE_INFINITY }));
    expect(generated).toMatchObject({ status: 'escalated', escalation: 'generator_failed', spentUsd: 0 });
    expect(generated.reason).toBe(
      'the plan generator returned a malformed result: $.costUsd: Invalid input: expected number, received Infinity',
    );
    const judged = await run(plan, answer({ decision: 'accept', costUsd: Number.POSITIVE_INFINITY }));
    expect(judged).toMatchObject({ status: 'escalated', escalation: 'invalid_decision', spentUsd: 1 });
    expect(judged.reason).toBe(
      'the plan critic returned a malformed decision: $.costUsd: Invalid input: expected number, received Infinity',
    );
  });
});
