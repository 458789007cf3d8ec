import { describe, expect, it } from 'vitest';
import { failed, ok } from '../../ports/tools.js';
import { DIR, manualOnly, simulate, toolStartInput as startInput, tools } from '../helpers.js';

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
