import { describe, expect, it } from 'vitest';
import type { FixSessionState } from '../../../src/fix-loop/contracts/session.js';
import { type FixInput, transition } from '../../../src/fix-loop/core/machine.js';
import { createFixSessionState } from '../../../src/fix-loop/core/start.js';
import { gapOf } from './fixtures.js';

// The fix session's pure transition: one record to commit and one effect per input.

const TS = '2026-01-01T00:00:00.000Z';
const fresh = createFixSessionState({
  sessionId: 's1',
  start: { goal: 'tests pass', goalType: 'tests', workspace: '.', testCommand: 'npm test', maxAttempts: 3 },
  ts: TS,
});
const step = (durationMs = 5) => ({ type: 'step' as const, ts: TS, durationMs });

describe('fix-loop transition', () => {
  it('a fresh session probes first: the step is marked in progress before the action', () => {
    const { state, effect } = transition(fresh, step());
    expect(effect).toMatchObject({ kind: 'act', decision: { action: 'probe' }, gapBefore: null });
    expect(state).toMatchObject({
      status: 'running',
      step_in_progress: { step_index: 0, action: 'probe' },
      outbox: [],
    });
  });

  it('what the action did is committed with its audit line and reported', () => {
    const begun = transition(fresh, step()).state;
    const acted: FixInput = {
      type: 'acted',
      ts: TS,
      durationMs: 7,
      decision: { action: 'probe', rationale: 'probe first', confidence: 1 },
      gapBefore: null,
      acted: { state: { ...begun, environment_verified: true }, description: 'Probed.', applied: null },
    };
    const { state, effect } = transition(begun, acted);
    expect(effect).toMatchObject({ kind: 'report', index: 0, outcome: { status: 'running', action: 'probe' } });
    expect(state).toMatchObject({ step_count: 1, step_in_progress: null, environment_verified: true });
    expect(state.outbox).toEqual([expect.objectContaining({ seq: 0, action_type: 'probe', duration_ms: 7 })]);
  });

  it('a step found in progress is closed as interrupted, its gap dropped, and the step taken again', () => {
    const cut: FixSessionState = {
      ...fresh,
      status: 'running',
      gap: gapOf(0, 2),
      step_count: 3,
      step_in_progress: { step_index: 3, action: 'test_iteration', candidate_hash: 'h' },
    };
    const { state, effect } = transition(cut, step());
    expect(effect).toMatchObject({ kind: 'step_again', interrupted: { seq: 3, interrupted: true, gap_before: 2 } });
    expect(state).toMatchObject({ gap: null, step_in_progress: null, step_count: 4 });
  });

  it('a zero gap converges without acting; an escalation asked for escalates without acting', () => {
    const measured = { ...fresh, environment_verified: true, gap: gapOf(0, 0), status: 'running' as const };
    expect(transition(measured, step()).effect).toMatchObject({ kind: 'report', outcome: { status: 'converged' } });
    const asked: FixInput = { ...step(), escalate: { reason: 'wall_time', rationale: 'out of time' } };
    const { state, effect } = transition(measured, asked);
    expect(effect).toMatchObject({ kind: 'report', outcome: { status: 'escalated', action: 'escalate' } });
    expect(state.escalation?.escalation_reason).toBe('wall_time');
  });
});
