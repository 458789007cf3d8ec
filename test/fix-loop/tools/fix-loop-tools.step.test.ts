import { describe, expect, it } from 'vitest';
import { failed, ok } from '../../ports/tools.js';
import { DIR, manualOnly, simulate, toolStartInput as startInput, tools } from '../helpers.js';

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
