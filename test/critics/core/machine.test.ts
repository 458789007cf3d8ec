import { describe, expect, it } from 'vitest';
import { transition } from '../../../src/critics/core/machine.js';
import { initialExecutionState } from '../../../src/critics/core/start.js';
import { drive, planOf } from './drive.js';

const STAGES = ['plan', 'code', 'test', 'deploy'];
const accept = { decision: 'accept' };

describe('the staged machine', () => {
  it('accepts every stage in order and completes', () => {
    const { state, trace, generatorCalls } = drive(planOf(STAGES), () => accept);
    expect(state).toMatchObject({ status: 'completed', reason: 'all 4 stages accepted', backtracks: 0 });
    expect(generatorCalls).toBe(4);
    expect(Object.keys(state.outputs)).toEqual(STAGES);
    expect(trace.map((record) => record.seq)).toEqual(trace.map((_, index) => index));
    expect(trace.at(-1)).toMatchObject({ kind: 'finished', status: 'completed', escalation: null });
    // The stage without a critic is accepted as generated: its generated record carries the action.
    expect(trace.at(-2)).toMatchObject({ kind: 'generated', stage: 'deploy', action: { kind: 'accept' } });
  });

  it('a pipeline of one stage completes with its one stage accepted', () => {
    const { state } = drive(planOf(['only']), () => accept);
    expect(state).toMatchObject({ status: 'completed', reason: 'its one stage accepted' });
  });

  it('a retry passes the issues; the next attempt is numbered on', () => {
    const issues = [{ issue: 'no tests', location: 'plan.md', requiredChange: 'add criteria' }];
    const replies = [{ decision: 'retry', issues }, accept, accept, accept];
    const { state, trace } = drive(planOf(STAGES), (_s, _a, i) => replies[i]);
    expect(state.attempts).toEqual({ plan: 2, code: 1, test: 1, deploy: 1 });
    expect(trace.filter((r) => r.kind === 'generated').map((r) => `${r.stage}#${r.attempt}`)).toEqual([
      'plan#1',
      'plan#2',
      'code#1',
      'test#1',
      'deploy#1',
    ]);
  });

  it('a route back drops later outputs and counts a backtrack; the cause says who routed', () => {
    const config = planOf(STAGES);
    let state = initialExecutionState({ executionId: 'e', spec: null, specHash: 'h', nextSeq: 5, ts: 't' });
    const gen = (hash: string) =>
      ({
        type: 'generated',
        ts: 't',
        durationMs: 2,
        result: { ok: true, output: hash, outputHash: hash, costUsd: 0.5 },
      }) as const;
    const judge = (value: unknown) => ({ type: 'judged', ts: 't', durationMs: 1, reply: { ok: true, value } }) as const;
    state = transition(state, gen('p1'), config).state;
    state = transition(state, judge(accept), config).state;
    state = transition(state, gen('c1'), config).state;
    const step = transition(
      state,
      judge({ decision: 'route_back', routeTo: 'plan', issues: [{ issue: 'bad plan' }], costUsd: 0.25 }),
      config,
    );
    expect(step.state).toMatchObject({ stage_index: 0, backtracks: 1, outputs: {}, spent_usd: 1.25 });
    expect(step.effect).toEqual({
      kind: 'generate',
      stage: 'plan',
      attempt: 2,
      cause: { kind: 'route_back', issues: [{ issue: 'bad plan' }], reason: 'the code critic routed back to plan' },
    });
    expect(step.records).toEqual([
      expect.objectContaining({ seq: 8, kind: 'judged', decision: 'route_back', routeTo: 'plan', costUsd: 0.25 }),
    ]);
    expect(step.state.judgements.map((j) => j.stage)).toEqual(['plan', 'code']);
    expect(() => transition({ ...step.state, status: 'completed' }, gen('x'), config)).toThrow('unreachable');
  });

  it('budget spent with accept_with_gaps: the gaps travel on and into the result', () => {
    const retry = { decision: 'retry', issues: [{ issue: 'coverage 60%' }] };
    const { state } = drive(planOf(STAGES), (stage) => (stage === 'test' ? retry : accept));
    expect(state).toMatchObject({ status: 'completed', reason: 'all 4 stages accepted with gaps at test' });
    expect(state.gaps).toEqual([{ stage: 'test', issues: [{ issue: 'coverage 60%' }] }]);
    expect(state.attempts.test).toBe(4);
  });

  it('the fourth route back escalates as a spec problem', () => {
    const { state, generatorCalls } = drive(planOf(STAGES), (stage) =>
      stage === 'code' ? { decision: 'route_back', routeTo: 'plan' } : accept,
    );
    expect(state).toMatchObject({ status: 'escalated', escalation: 'spec_problem', backtracks: 3 });
    expect(generatorCalls).toBe(8);
  });

  it('a generator that fails escalates with generator_failed', () => {
    const { state, trace } = drive(planOf(STAGES), () => accept, { fail: (stage) => stage === 'code' });
    expect(state).toMatchObject({ status: 'escalated', escalation: 'generator_failed', reason: 'boom' });
    expect(trace.at(-2)).toMatchObject({ kind: 'generated', stage: 'code', outputHash: null, error: 'boom' });
  });

  it('an invalid critic decision is recorded as such and escalates', () => {
    const { state, trace } = drive(planOf(STAGES), () => ({ decision: 'route_back', routeTo: 'deploy', costUsd: -1 }));
    expect(state).toMatchObject({ status: 'escalated', escalation: 'invalid_decision' });
    expect(trace.at(-2)).toMatchObject({ kind: 'judged', decision: 'invalid', costUsd: 0 });
  });

  it('veto: a route back is a retry, recorded as vetoed', () => {
    const replies = [{ decision: 'route_back', routeTo: 'plan' }];
    const { trace, state } = drive(planOf(STAGES, { variant: 'veto' }), (_s, _a, i) => replies[i] ?? accept);
    expect(trace[1]).toMatchObject({ kind: 'judged', vetoed: true, action: { kind: 'retry' } });
    expect(state).toMatchObject({ status: 'completed', backtracks: 0 });
  });

  it('veto: a route back to a later, unknown or no stage is a retry too, never invalid_decision', () => {
    for (const routeTo of ['deploy', 'nowhere', undefined]) {
      const replies = [{ decision: 'route_back', routeTo }];
      const { trace, state } = drive(planOf(STAGES, { variant: 'veto' }), (_s, _a, i) => replies[i] ?? accept);
      expect(trace[1]).toMatchObject({
        kind: 'judged',
        decision: 'route_back',
        vetoed: true,
        action: { kind: 'retry' },
      });
      expect(trace[1]).not.toHaveProperty('invalid');
      expect(state).toMatchObject({ status: 'completed', backtracks: 0 });
    }
  });

  it('the USD budget escalates once spent', () => {
    const { state } = drive(planOf(STAGES, { budgetUsd: 1 }), () => accept, { generatorCost: 0.6 });
    expect(state).toMatchObject({ status: 'escalated', escalation: 'budget', spent_usd: 1.2 });
  });

  it("with the USD budget spent, the last stage's accept completes; an accept before it escalates", () => {
    // plan costs 0.6, its critic accepts; deploy (no critic) costs 0.6: the budget of 1 is spent by the last call.
    const twoStages = planOf(['plan', 'deploy'], { budgetUsd: 1 });
    expect(drive(twoStages, () => accept, { generatorCost: 0.6 }).state).toMatchObject({
      status: 'completed',
      spent_usd: 1.2,
    });
    // The same with a critic on the last stage: its accept ends the execution, no generator call follows.
    const criticLast = { ...twoStages, stages: twoStages.stages.map((stage) => ({ ...stage, hasCritic: true })) };
    expect(drive(criticLast, () => accept, { generatorCost: 0.6 }).state).toMatchObject({ status: 'completed' });
    // Spent on the first stage's call: its accept would call deploy's generator, so it escalates.
    expect(drive(twoStages, () => accept, { generatorCost: 1 }).state).toMatchObject({
      status: 'escalated',
      escalation: 'budget',
      spent_usd: 1,
    });
  });
});
