import { describe, expect, it } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import type { StageRunner } from '../../src/goal/stage-runner.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, harness, PATHS, passed, RUN } from './helpers.js';

// metrics.json read outside run(): evaluate() and readLoopStatus() report what run() refuses, never read it as silence.

const allPassed = () => createScriptedStageRunner({ a: passed, b: { status: 'passed', costUsd: 0.5 }, c: passed });

// What run() throws on the project's metrics.json (fails the test when it runs).
async function runRefusal(h: ReturnType<typeof harness>): Promise<GoalLoopError> {
  const error = await h
    .loop(allPassed())
    .run()
    .then(
      () => new Error('run() accepted the file'),
      (caught: unknown) => caught,
    );
  if (error instanceof GoalLoopError) return error;
  throw error;
}

// A runner that records the stages it runs and passes each.
function recording(ran: string[]): StageRunner {
  return {
    run: async (stage) => {
      ran.push(stage);
      return passed;
    },
  };
}

describe('evaluate() on a metrics.json that run() refuses', () => {
  it.each([
    ['{"cumulative_cost_usd":"abc"}', ['cumulative_cost_usd'], '(got "abc")'],
    ['{"cumulative_cost_usd":1e999}', ['cumulative_cost_usd'], '(got Infinity'],
    ['{"cumulative_cost_usd":-5}', ['cumulative_cost_usd'], '(got -5)'],
    ['{"cumulative_cost_usd":{"usd":1}}', ['cumulative_cost_usd'], '(got {"usd":1})'],
    ['{{garbage', [], 'Not valid JSON'],
    ['[1, 2]', [], 'expected a JSON object'],
  ])('%s: metrics:readable fails with a BLOCK, the issue at its path naming metrics.json', async (text, path, got) => {
    const h = harness();
    expectStop(await h.loop(allPassed()).run(), 'complete', 0);
    expect((await h.loop(allPassed()).evaluate()).status).toBe('PASS');
    await h.fs.writeText(PATHS.metrics, text);

    const evaluation = await h.loop(allPassed()).evaluate();
    expect(evaluation.status).toBe('BLOCK');
    expect(evaluation.issues).toEqual([
      expect.objectContaining({ path, message: expect.stringMatching(/^metrics\.json: /) }),
    ]);
    expect(evaluation.issues[0]?.message).toContain(got);
    const check = evaluation.builtins.find((builtin) => builtin.id === 'metrics:readable');
    expect(check).toMatchObject({ status: 'FAIL', rerunStages: [] });
    expect(check?.detail).toContain('the loop refuses to run until it is fixed');
    expect(evaluation.reason).toContain('metrics.json cannot be used');
    expect(evaluation.signals).toContainEqual(expect.objectContaining({ kind: 'metrics_unreadable' }));

    // run() refuses the same file, naming the same field.
    const refused = await runRefusal(h);
    expect(refused.code).toBe('INVALID_CONTRACT');
    expect(refused.issues.map((issue) => issue.path)).toEqual([path]);
  });

  it('a valid metrics.json adds no check and no issue (a numeric string is a number, as run() reads it)', async () => {
    const h = harness();
    expectStop(await h.loop(allPassed()).run(), 'complete', 0);
    await h.fs.writeText(PATHS.metrics, JSON.stringify({ cumulative_cost_usd: '12.5', tokens: 'many' }));
    const evaluation = await h.loop(allPassed()).evaluate();
    expect(evaluation).toMatchObject({ status: 'PASS', issues: [] });
    expect(evaluation.builtins.map((check) => check.id)).not.toContain('metrics:readable');
  });
});

describe("evaluate() on metrics.json's stage_status with no loop record", () => {
  it('reports each entry of a wrong type or an unknown status at its path, and says the stage has no readable status', async () => {
    const stageStatus = { a: 'PASS', b: 12, c: { x: 1 } };
    const h = harness({ [PATHS.metrics]: JSON.stringify({ stage_status: stageStatus }) });
    const evaluation = await h.loop(allPassed()).evaluate();
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ['invalid_type', ['stage_status', 'b']],
      ['invalid_type', ['stage_status', 'c']],
    ]);
    expect(evaluation.issues[0]?.message).toMatch(/^metrics\.json: stage_status\.b must be a status .*\(got 12\)/);
    expect(evaluation.issues[1]?.message).toContain('(got an object)');
    const details = Object.fromEntries(evaluation.builtins.map((check) => [check.id, [check.status, check.detail]]));
    expect(details['stage:a']).toEqual(['PASS', 'Stage a passed.']);
    expect(details['stage:b']).toEqual([
      'PENDING',
      'Stage b has no readable status (metrics.json $.stage_status.b cannot be read), so it counts as not run.',
    ]);
    expect(details['stage:c']?.[0]).toBe('PENDING');
    expect(evaluation.builtins.map((check) => check.id)).not.toContain('metrics:readable');
  });

  it('reports an unknown status string, and a stage_status that is not an object, while known ones pass silently', async () => {
    const h = harness({ [PATHS.metrics]: JSON.stringify({ stage_status: { a: 'WAT', b: 'running', c: 'FAILED' } }) });
    const evaluation = await h.loop(allPassed()).evaluate();
    expect(evaluation.issues).toEqual([
      expect.objectContaining({ code: 'invalid_value', path: ['stage_status', 'a'] }),
    ]);
    expect(evaluation.issues[0]?.message).toContain('is "WAT", not a stage status');
    expect(evaluation.builtins.find((check) => check.id === 'stage:b')?.detail).toBe('Stage b has not run.');

    await h.fs.writeText(PATHS.metrics, JSON.stringify({ stage_status: 'nope' }));
    const whole = await h.loop(allPassed()).evaluate();
    expect(whole.status).toBe('RETRY');
    expect(whole.issues.map((issue) => issue.path)).toEqual([['stage_status']]);
    expect(whole.builtins.filter((check) => check.detail.includes('no readable status'))).toHaveLength(3);
  });

  it('agrees with run(), which runs every stage whose entry it cannot read (only the PASS one is skipped)', async () => {
    const h = harness({ [PATHS.metrics]: JSON.stringify({ stage_status: { a: 'PASS', b: 12, c: 'WAT' } }) });
    const ran: string[] = [];
    expectStop(await h.loop(recording(ran)).run(), 'complete', 0);
    expect(ran).toEqual(['b', 'c']);
  });
});

describe('readLoopStatus and metrics.json', () => {
  it('reports the larger spend: metrics.json once it says more than loop-state.json, the record otherwise', async () => {
    const h = harness();
    expectStop(await h.loop(allPassed()).run(), 'complete', 0);
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({ spentUsd: 0.5, issues: [] });
    await h.fs.writeText(PATHS.metrics, JSON.stringify({ cumulative_cost_usd: 99 }));
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({ spentUsd: 99, issues: [] });
    await h.fs.writeText(PATHS.metrics, JSON.stringify({ cumulative_cost_usd: 0.1 }));
    expect((await readLoopStatus({ fs: h.fs, runDir: RUN })).spentUsd).toBe(0.5);
  });

  it('reports the spend a fresh loop would start from when no loop ran yet', async () => {
    const h = harness({ [PATHS.metrics]: JSON.stringify({ cumulative_cost_usd: 7 }) });
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({ exists: false, spentUsd: 7, issues: [] });
  });

  it.each([
    ['{{garbage', []],
    ['{"cumulative_cost_usd":"abc"}', ['cumulative_cost_usd']],
    ['{"cumulative_cost_usd":1e999}', ['cumulative_cost_usd']],
    ['{"cumulative_cost_usd":-5}', ['cumulative_cost_usd']],
  ])(
    'reports an invalid metrics.json (%s) as an issue at its path, with the spend of loop-state.json',
    async (text, path) => {
      const h = harness();
      expectStop(await h.loop(allPassed()).run(), 'complete', 0);
      await h.fs.writeText(PATHS.metrics, text);
      const status = await readLoopStatus({ fs: h.fs, runDir: RUN });
      expect(status.spentUsd).toBe(0.5);
      expect(status.issues).toEqual([
        expect.objectContaining({ path, message: expect.stringMatching(/^metrics\.json: /) }),
      ]);
    },
  );
});
