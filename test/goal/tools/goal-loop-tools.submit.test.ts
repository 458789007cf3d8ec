import { describe, expect, it } from 'vitest';
import { failed, ok } from '../../ports/tools.js';
import { PATHS, project, RUN, STAGES } from './project.js';

describe('submit_verdict', () => {
  it('writes a signed verdict stamped for the next iteration, which the loop then consumes', async () => {
    const p = project();
    await p.fs.writeText(`${RUN}/report.json`, '{}');
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'ask_user', iteration: 1 });
    const output = ok(
      await p.submit.handler({
        run_dir: RUN,
        criterion_id: 'design',
        verdict: 'PASS',
        source: 'human',
        judge: 'architect',
        reasoning: 'Layers hold.',
      }),
    );
    expect(output).toEqual({
      run_dir: RUN,
      criterion_id: 'design',
      verdict: 'PASS',
      source: 'human',
      judge: 'human:architect',
      iteration: 2,
    });
    expect(JSON.parse((await p.fs.readText(PATHS.verdicts)) ?? '')).toEqual({
      verdicts: [
        { criterion_id: 'design', verdict: 'PASS', judge: 'human:architect', reasoning: 'Layers hold.', iteration: 2 },
      ],
    });
    expect(ok(await p.evaluate.handler({ run_dir: RUN })).status).toBe('PASS');
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'complete', iteration: 2 });
  });

  it("signs an agent's verdict agent:<judge> and requires its reasoning; a FAIL with block blocks", async () => {
    const p = project();
    const missing = failed(
      await p.submit.handler({ run_dir: RUN, criterion_id: 'design', verdict: 'FAIL', source: 'agent' }),
    );
    expect(missing).toMatchObject({ code: 'invalid_input', issues: [{ path: ['reasoning'] }] });
    const both = failed(
      await p.submit.handler({ run_dir: RUN, criterion_id: 'design', verdict: 'MAYBE', source: 'agent' }),
    );
    expect(both.issues.map((issue) => issue.path)).toEqual([['verdict'], ['reasoning']]);
    expect(await p.fs.readText(PATHS.verdicts)).toBeNull();
    const output = ok(
      await p.submit.handler({
        run_dir: RUN,
        criterion_id: 'design',
        verdict: 'FAIL',
        source: 'agent',
        reasoning: 'A cycle between b and a.',
        recommendation: 'block',
      }),
    );
    expect(output).toMatchObject({ judge: 'agent', iteration: 1, recommendation: 'block' });
    await p.fs.writeText(`${RUN}/report.json`, '{}');
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'blocked' });
  });

  it('names criterion_id when the goal has no such judge criterion, and writes nothing', async () => {
    const p = project();
    for (const id of ['nope', 'report']) {
      const error = failed(
        await p.submit.handler({ run_dir: RUN, criterion_id: id, verdict: 'PASS', source: 'human' }),
      );
      expect(error.code).toBe('invalid_input');
      expect(error.issues.map((issue) => issue.path)).toEqual([['criterion_id']]);
      expect(error.message).toContain('$.criterion_id');
    }
    expect(await p.fs.readText(PATHS.verdicts)).toBeNull();
  });

  it("with the pipeline's stages, names a recommended rerun stage outside them and writes nothing", async () => {
    const p = project({ stages: STAGES });
    const call = { run_dir: RUN, criterion_id: 'design', verdict: 'FAIL', source: 'human' } as const;
    const error = failed(await p.submit.handler({ ...call, recommended_rerun_stages: ['b', 'c'] }));
    expect(error.code).toBe('invalid_input');
    expect(error.issues).toEqual([
      expect.objectContaining({
        path: ['recommended_rerun_stages', 1],
        message: expect.stringContaining('"c" is not a stage'),
      }),
    ]);
    expect(await p.fs.readText(PATHS.verdicts)).toBeNull();
    ok(await p.submit.handler({ ...call, recommended_rerun_stages: ['b'] }));
  });

  it("without stages of its own, checks against the stages the run records; the message names the input's paths", async () => {
    const p = project();
    await p.loop().run();
    const call = { run_dir: RUN, criterion_id: 'design', verdict: 'FAIL', source: 'human' } as const;
    const error = failed(await p.submit.handler({ ...call, recommended_rerun_stages: ['zz'] }));
    expect(error.issues.map((issue) => issue.path)).toEqual([['recommended_rerun_stages', 0]]);
    expect(error.message).toBe(
      'Invalid input: $.recommended_rerun_stages[0]: "zz" is not a stage of the pipeline (a, b)',
    );
  });

  it('refuses a source the host does not accept', async () => {
    const p = project({ verdictSources: ['agent'] });
    const call = { run_dir: RUN, criterion_id: 'design', verdict: 'PASS', source: 'human' } as const;
    expect(failed(await p.submit.handler(call))).toMatchObject({
      code: 'invalid_input',
      issues: [{ path: ['source'] }],
    });
    expect(ok(await p.submit.handler({ ...call, source: 'agent', reasoning: 'Checked.' })).judge).toBe('agent');
  });

  it('leaves a goal-verdict.json that is not JSON untouched, as an invalid_contract tool error', async () => {
    const p = project();
    await p.fs.writeText(PATHS.verdicts, '{ torn');
    const error = failed(
      await p.submit.handler({ run_dir: RUN, criterion_id: 'design', verdict: 'PASS', source: 'human' }),
    );
    expect(error.code).toBe('invalid_contract');
    expect(await p.fs.readText(PATHS.verdicts)).toBe('{ torn');
  });
});
