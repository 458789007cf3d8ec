import { describe, expect, it } from 'vitest';
import { FixLoopOrchestrator } from '../../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateSource } from '../../../src/fix-loop/host-ports.js';
import { createFixLoopTools } from '../../../src/fix-loop/tools/fix-loop-tools.js';
import type { FixLoopToolsOptions } from '../../../src/fix-loop/tools/options.js';
import type { ToolResult } from '../../../src/ports/tool.js';
import { createManualClock } from '../../../src/testing/manual-clock.js';
import { fixingSource, memoryProject, type Simulated, simulate, toolStartInput as startInput } from '../helpers.js';

// The fix loop's tools over an orchestrator on a simulated workspace: the seed's input names, step results with
// candidates and escalation, a run with its audit log, and every refusal a tool error — a finished session stepped
// again included.

const DIR = '.goal-loop/fix-sessions';

function tools(sim: Simulated, candidates: CandidateSource = fixingSource(sim), options: FixLoopToolsOptions = {}) {
  const fixer = new FixLoopOrchestrator({
    fs: memoryProject(),
    dir: DIR,
    commands: sim.commands,
    candidates,
    applier: sim.applier,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
  });
  const [start, step, run, get] = createFixLoopTools(fixer, options);
  return { fixer, start, step, run, get };
}

function ok<T>(result: ToolResult<T>): T {
  if (result.isError) throw new Error(`unexpected tool error: ${result.error.message}`);
  return result.output;
}

function failed<T>(result: ToolResult<T>) {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result.output)}`);
  return result.error;
}

// A source whose only proposal needs a human.
const manualOnly: CandidateSource = {
  propose: () => [{ description: 'rewrite the parser by hand', confidence: 0.9, mutationType: 'manual' }],
};

describe('createFixLoopTools', () => {
  it('names the four tools and takes the seed input names, refusing unknown fields', () => {
    const t = tools(simulate(['a']));
    expect([t.start, t.step, t.run, t.get].map((tool) => tool.name)).toEqual([
      'start_feedback_loop',
      'step_feedback_loop',
      'run_feedback_loop',
      'get_feedback_loop',
    ]);
    expect(t.start.inputJsonSchema).toMatchObject({
      type: 'object',
      required: ['goal', 'goal_type', 'workspace'],
      additionalProperties: false,
    });
    expect(Object.keys(t.start.inputJsonSchema.properties as object)).toEqual([
      'goal',
      'goal_type',
      'workspace',
      'build_command',
      'test_command',
      'test_report',
      'max_attempts',
    ]);
    expect(t.step.inputJsonSchema).toMatchObject({ required: ['session_id'] });
    expect(Object.keys(t.run.inputJsonSchema.properties as object)).toEqual([
      'session_id',
      'max_wall_seconds',
      'include_audit',
    ]);
    for (const tool of [t.start, t.step, t.run, t.get]) expect(tool.outputJsonSchema.type).toBe('object');
  });
});

describe('start_feedback_loop', () => {
  it('returns a pending session and persists it; a clamped max_attempts is noted with its path', async () => {
    const t = tools(simulate(['a']));
    const started = ok(await t.start.handler(startInput()));
    expect(started).toEqual({ session_id: 'fix-20260101T000000000Z-1', status: 'pending', issues: [] });
    expect(ok(await t.get.handler({ session_id: started.session_id }))).toMatchObject({
      status: 'pending',
      goal: 'tests pass',
      workspace: 'ws',
      attempts_made: 0,
      audit_tail: [],
    });
    const clamped = ok(await t.start.handler(startInput({ max_attempts: 10_000 })));
    expect(clamped.issues.map((issue) => issue.path)).toEqual([['max_attempts']]);
  });

  it('refuses a missing or escaping workspace and misspelt fields, naming each JSON path', async () => {
    const t = tools(simulate(['a']));
    const missing = failed(await t.start.handler({ goal: 'g', goal_type: 't' }));
    expect(missing.code).toBe('invalid_input');
    expect(missing.message).toContain('$.workspace');
    const escaping = failed(await t.start.handler(startInput({ workspace: '../outside' })));
    expect(escaping).toMatchObject({ code: 'invalid_input', issues: [{ path: ['workspace'] }] });
    const typo = failed(await t.start.handler(startInput({ max_attemps: 3 })));
    expect(typo.message).toContain('max_attemps');
    expect(failed(await t.start.handler(startInput({ maxAttempts: 3 }))).message).toContain('maxAttempts');
  });
});

describe('step_feedback_loop', () => {
  it('reports the action, status and gap of each step, with the candidates of a test iteration', async () => {
    const t = tools(simulate(['a']));
    const { session_id } = ok(await t.start.handler(startInput()));
    expect(ok(await t.step.handler({ session_id }))).toMatchObject({
      action_taken: 'probe',
      session_status: 'running',
    });
    const measured = ok(await t.step.handler({ session_id }));
    expect(measured).toMatchObject({ action_taken: 'measure', gap: { gap: 1, tests: { failed: 1 } } });
    expect(measured.candidates).toBeUndefined();
    const fixed = ok(await t.step.handler({ session_id }));
    expect(fixed).toMatchObject({
      step_index: 2,
      action_taken: 'test_iteration',
      session_status: 'converged',
      gap: { gap: 0 },
      attempt: { outcome: 'applied', candidate_description: 'fix a', gap_before: 1, gap_after: 0 },
    });
    expect(fixed.candidates?.map((candidate) => candidate.description)).toEqual(['fix a', 'fix a (alternate)']);
    // Like the escalation report's candidates, in the tools' snake_case.
    expect(fixed.candidates?.[0]).toEqual({
      description: 'fix a',
      confidence: 0.9,
      mutation_type: 'auto',
      data: { fixes: 'a' },
    });
    expect(fixed.escalation).toBeUndefined();
    expect(fixed.escalation_files).toBeUndefined();
  });

  it('returns the escalation report when the top candidate is manual, then refuses another step as a tool error', async () => {
    const t = tools(simulate(['a']), manualOnly);
    const { session_id } = ok(await t.start.handler(startInput()));
    let last = ok(await t.step.handler({ session_id }));
    while (last.session_status === 'running') last = ok(await t.step.handler({ session_id }));
    expect(last).toMatchObject({
      session_status: 'escalated',
      escalation: {
        session_id,
        escalation_reason: 'manual_required',
        top_remaining_candidates: [{ description: 'rewrite the parser by hand', mutation_type: 'manual' }],
      },
      escalation_files: {
        json: `${DIR}/${session_id}/escalation.json`,
        markdown: `${DIR}/${session_id}/escalation.md`,
      },
    });
    const again = await t.step.handler({ session_id });
    expect(again).toMatchObject({ isError: true, error: { code: 'invalid_state' } });
    expect(failed(again).message).toContain('escalated');
  });

  it('answers an unknown session with not_found and an unsafe id with invalid_input at $.session_id', async () => {
    const t = tools(simulate(['a']));
    expect(failed(await t.step.handler({ session_id: 'fix-none' })).code).toBe('not_found');
    expect(failed(await t.get.handler({ session_id: 'fix-none' })).code).toBe('not_found');
    const unsafe = failed(await t.step.handler({ session_id: '../../etc' }));
    expect(unsafe).toMatchObject({ code: 'invalid_input', issues: [{ path: ['session_id'] }] });
    expect(failed(await t.step.handler({ session_id: 7 })).message).toContain('$.session_id');
  });
});

describe('run_feedback_loop and get_feedback_loop', () => {
  it('runs to convergence with the audit log on request, and get reads the same log', async () => {
    const sim = simulate(['a', 'b']);
    const t = tools(sim);
    const { session_id } = ok(await t.start.handler(startInput()));
    const result = ok(await t.run.handler({ session_id, include_audit: true }));
    expect(result).toMatchObject({ session_id, final_status: 'converged', final_gap: { gap: 0 }, steps_taken: 4 });
    expect(result.escalation).toBeUndefined();
    expect(result.escalation_files).toBeUndefined();
    expect(result.audit_log?.map((entry) => [entry.action_type, entry.gap_after])).toEqual([
      ['probe', null],
      ['measure', 2],
      ['test_iteration', 1],
      ['test_iteration', 0],
    ]);
    expect(sim.applied).toEqual(['fix a', 'fix b']);
    const view = ok(await t.get.handler({ session_id, audit_tail: 2 }));
    expect(view).toMatchObject({
      status: 'converged',
      attempts_made: 2,
      escalation: null,
      escalation_files: null,
      gap: { gap: 0 },
    });
    expect(view.audit_tail).toEqual(result.audit_log?.slice(-2));
    expect(ok(await t.run.handler({ session_id }))).toEqual({
      session_id,
      final_status: 'converged',
      final_gap: result.final_gap,
      steps_taken: 0,
    });
  });

  it('returns the escalation of a run that cannot converge, without the audit log unless asked', async () => {
    const t = tools(simulate(['a']), manualOnly);
    const { session_id } = ok(await t.start.handler(startInput()));
    const result = ok(await t.run.handler({ session_id }));
    const files = { json: `${DIR}/${session_id}/escalation.json`, markdown: `${DIR}/${session_id}/escalation.md` };
    expect(result).toMatchObject({
      final_status: 'escalated',
      escalation: { escalation_reason: 'manual_required' },
      escalation_files: files,
    });
    expect(result.audit_log).toBeUndefined();
    const view = ok(await t.get.handler({ session_id }));
    expect(view.escalation?.escalation_reason).toBe('manual_required');
    expect(view.escalation_files).toEqual(files);
  });

  it("holds a call to the host's wall-time bound", async () => {
    const t = tools(simulate(['a']), undefined, { maxWallSeconds: 30 });
    const { session_id } = ok(await t.start.handler(startInput()));
    const error = failed(await t.run.handler({ session_id, max_wall_seconds: 31 }));
    expect(error).toMatchObject({ code: 'invalid_input', issues: [{ path: ['max_wall_seconds'] }] });
    expect(t.run.description).toContain('at most 30 seconds');
    expect(failed(await t.run.handler({ session_id, max_wall_seconds: 0 })).message).toContain('$.max_wall_seconds');
    expect(ok(await t.run.handler({ session_id, max_wall_seconds: 30 })).final_status).toBe('converged');
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => tools(simulate(['a']), undefined, { maxWallSeconds: bad })).toThrow(/maxWallSeconds/);
    }
  });
});
