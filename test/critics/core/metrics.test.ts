import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExecutionTrace } from '../../../src/critics/contracts/result.js';
import { computeCriticMetrics } from '../../../src/critics/core/metrics.js';
import { renderCriticReport } from '../../../src/critics/core/report.js';
import { drive, planOf } from './drive.js';

const STAGES = ['plan', 'code', 'test', 'deploy'];
const accept = { decision: 'accept' };

// One execution of the pure machine with scripted replies, as a trace.
function execution(id: string, replies: readonly unknown[], over = {}): ExecutionTrace {
  const { state, trace } = drive(planOf(STAGES, over), (_s, _a, i) => replies[i] ?? accept, { generatorCost: 1 });
  if (state.status === 'running') throw new Error('unfinished');
  return { executionId: id, status: state.status, escalation: state.escalation, trace };
}

describe('computeCriticMetrics', () => {
  it('counts iterations, retries, route backs, completion within budget and accuracy per stage', () => {
    const traces = [
      // plan retried once (its second output accepted: a right reject), then everything accepted.
      execution('a', [{ decision: 'retry' }, accept, accept, accept]),
      // code routes back to plan (plan's accept was wrong), then the second pass is accepted.
      execution('b', [accept, { decision: 'route_back', routeTo: 'plan' }, accept, accept, accept]),
      // test escalates.
      execution('c', [accept, accept, { decision: 'escalate' }]),
    ];
    const metrics = computeCriticMetrics(traces);
    const plan = metrics.stages.find((stage) => stage.stage === 'plan');
    expect(plan).toMatchObject({
      executions: 3,
      decisions: 5,
      meanIterations: 5 / 3,
      retryRate: 1 / 5,
      backtrackRate: 0,
      completionWithinBudgetRate: 1,
      escalationRate: 0,
      criticAccuracy: 4 / 5,
      generatorCostUsd: 5,
    });
    expect(metrics.stages.find((stage) => stage.stage === 'code')).toMatchObject({
      backtrackRate: 1 / 4,
      criticAccuracy: 1,
    });
    expect(metrics.stages.find((stage) => stage.stage === 'test')).toMatchObject({ escalationRate: 1 / 3 });
    expect(metrics.stages.find((stage) => stage.stage === 'deploy')).toMatchObject({ decisions: 0, retryRate: null });
    expect(metrics.overall).toMatchObject({
      executions: 3,
      completionRate: 2 / 3,
      escalationRate: 1 / 3,
      decisions: 12,
      retryRate: 1 / 12,
      backtrackRate: 1 / 12,
      reworkCostUsd: 3,
    });
    expect(metrics.routesBack).toEqual([{ from: 'code', to: 'plan', count: 1 }]);
    expect(metrics.flags.map((flag) => flag.code)).toEqual(['retry_rate_out_of_band']);
  });

  it("adds a late cost to its stage's generator or critic cost, changing no count", () => {
    const base = execution('a', [accept, accept, accept]);
    const late = (call: 'generate' | 'judge', costUsd: number) =>
      ({ kind: 'late_cost', seq: 99, ts: 't', stage: 'code', attempt: 1, call, costUsd, path: 'p' }) as const;
    const withLate = { ...base, trace: [...base.trace, late('generate', 2), late('judge', 0.5)] };
    const before = computeCriticMetrics([base]).stages.find((stage) => stage.stage === 'code');
    const after = computeCriticMetrics([withLate]).stages.find((stage) => stage.stage === 'code');
    expect(after).toEqual({
      ...before,
      generatorCostUsd: (before?.generatorCostUsd ?? 0) + 2,
      criticCostUsd: (before?.criticCostUsd ?? 0) + 0.5,
      criticToGeneratorCost: 0.5 / 3,
    });
  });

  it('counts a refused route back (later target, spec problem) as no backtrack, like routesBack', () => {
    // plan accepts, code routes back to test (a later stage): invalid_decision, nothing routed back.
    const later = execution('later', [accept, { decision: 'route_back', routeTo: 'test' }]);
    // code routes back to plan with no backtracks left: the route back escalates as a spec problem.
    const spent = execution('spent', [accept, { decision: 'route_back', routeTo: 'plan' }], { maxBacktracks: 0 });
    expect(later.escalation).toBe('invalid_decision');
    expect(spent.escalation).toBe('spec_problem');
    const metrics = computeCriticMetrics([later, spent]);
    expect(metrics.routesBack).toEqual([]);
    expect(metrics.overall.backtrackRate).toBe(0);
    expect(metrics.stages.find((stage) => stage.stage === 'code')).toMatchObject({
      backtrackRate: 0,
      escalationRate: 1,
    });
    expect(metrics.flags.map((flag) => flag.code)).not.toContain('systemic_upstream_failure');
    // Test was never accepted nor routed back to; the later-stage target makes no earlier accept wrong.
    expect(computeCriticMetrics([later]).stages.find((stage) => stage.stage === 'plan')?.criticAccuracy).toBe(1);
  });

  it('judges an accept wrong when the execution escalates because of that stage (a refused route back to it)', () => {
    // code asks to route back to plan but no backtrack is left: the execution escalates because of plan.
    const spent = execution('spent', [accept, { decision: 'route_back', routeTo: 'plan' }], { maxBacktracks: 0 });
    // test escalates on its own output: plan's and code's accepts are not blamed.
    const own = execution('own', [accept, accept, { decision: 'escalate' }]);
    expect(computeCriticMetrics([spent]).stages.find((stage) => stage.stage === 'plan')?.criticAccuracy).toBe(0);
    const metrics = computeCriticMetrics([own]);
    expect(metrics.stages.find((stage) => stage.stage === 'plan')?.criticAccuracy).toBe(1);
    expect(metrics.stages.find((stage) => stage.stage === 'code')?.criticAccuracy).toBe(1);
  });

  it('counts a vetoed route back as a retry: no backtrack, and the named stage is not routed back to', () => {
    const vetoed = execution('veto', [accept, { decision: 'route_back', routeTo: 'plan' }], { variant: 'veto' });
    const metrics = computeCriticMetrics([vetoed]);
    expect(metrics.routesBack).toEqual([]);
    expect(metrics.stages.find((stage) => stage.stage === 'code')).toMatchObject({
      retryRate: 1 / 2,
      backtrackRate: 0,
    });
    expect(metrics.stages.find((stage) => stage.stage === 'plan')?.criticAccuracy).toBe(1);
  });

  it('raises the seed flags: a critic that never blocks, lenient critics, systemic failure', () => {
    const lenient = computeCriticMetrics([execution('a', []), execution('b', [])]);
    expect(lenient.flags.map((flag) => [flag.code, flag.stage])).toEqual([
      ['critics_too_lenient', undefined],
      ['critic_never_blocks', 'plan'],
      ['critic_never_blocks', 'code'],
      ['critic_never_blocks', 'test'],
      ['retry_rate_out_of_band', undefined],
      ['backtrack_rate_out_of_band', undefined],
    ]);
    const back = { decision: 'route_back', routeTo: 'plan' };
    const systemic = computeCriticMetrics([execution('s', [accept, back, accept, back, accept, back, accept, back])]);
    expect(systemic.flags.map((flag) => flag.code)).toContain('systemic_upstream_failure');
    expect(computeCriticMetrics([]).overall).toMatchObject({ executions: 0, completionRate: null, retryRate: null });
  });

  it('renders Markdown with the flags, the stage table and a Mermaid flow', () => {
    const metrics = computeCriticMetrics([
      execution('b', [accept, { decision: 'route_back', routeTo: 'plan' }, { decision: 'retry' }, accept, accept]),
    ]);
    const report = renderCriticReport(metrics);
    expect(report).toContain('# Staged critics report');
    expect(report).toContain('| plan | 1 | 3.00 | 33.3% |');
    expect(report).toContain('```mermaid\nflowchart LR');
    expect(report).toContain('S1 -.->|back 50.0%| S0');
    expect(report).toContain('S0 -->|retry 33.3%| S0');
    expect(renderCriticReport(computeCriticMetrics([]))).toContain('No flags');
    expect(report).toContain('\n1 execution: ');
    expect(renderCriticReport(computeCriticMetrics([]))).toContain('\n0 executions: ');
  });
});

const reply = fc.oneof(
  fc.constant({ decision: 'accept' }),
  fc.constant({ decision: 'retry' }),
  fc.constant({ decision: 'escalate' }),
  fc.constantFrom('plan', 'code', 'test').map((routeTo) => ({ decision: 'route_back', routeTo })),
  fc.constant({ decision: 'nonsense' }),
);

describe('metrics over any traces', () => {
  it('are deterministic and every rate is in [0, 1]', () => {
    const traces = fc.array(fc.array(reply, { minLength: 1, maxLength: 12 }), { maxLength: 8 });
    fc.assert(
      fc.property(traces, fc.constantFrom('route_back', 'veto'), (scripts, variant) => {
        const all = scripts.map((replies, i) => execution(`e${i}`, replies, { variant }));
        const first = computeCriticMetrics(all);
        expect(computeCriticMetrics(all)).toEqual(first);
        const rates = [first.overall, ...first.stages].flatMap((m) =>
          Object.entries(m).filter(([key]) => key.endsWith('Rate') || key === 'criticAccuracy'),
        );
        for (const [, value] of rates) if (value !== null) expect(value).toBeGreaterThanOrEqual(0);
        for (const [, value] of rates) if (value !== null) expect(value).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('renderCriticReport: quoted values', () => {
  it('escapes a stage id in the table, the flags and the Mermaid label', () => {
    const metrics = computeCriticMetrics([execution('a', [{ decision: 'retry' }])]);
    const stage = metrics.stages[0];
    if (stage === undefined) throw new Error('the fixture should have a stage');
    const hostile = '<b>plan</b>|"x"\n## Injected';
    const report = renderCriticReport({
      ...metrics,
      stages: [{ ...stage, stage: hostile }],
      flags: [
        { code: 'retry_rate_out_of_band', stage: hostile, message: '<script>' } as (typeof metrics.flags)[number],
      ],
    });
    expect(report.split('\n')).not.toContain('## Injected');
    expect(report).not.toMatch(/<b>|<script>/);
    expect(report).toContain('| &lt;b>plan&lt;/b>\\|"x" ## Injected |');
    expect(report).toContain('S0["#lt;b#gt;plan#lt;/b#gt;#124;#quot;x#quot; #35;#35; Injected<br/>');
  });
});
