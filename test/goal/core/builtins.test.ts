import { describe, expect, it } from 'vitest';
import { evaluateBuiltins, stageCheck } from '../../../src/goal/core/builtins.js';
import { FEEDBACK, facts, feedback, statuses } from './fixtures.js';

// A feedback report with the given issues and declared critical count.
const report = (issues: unknown[], criticalCount: number | null = null) =>
  feedback({ summary: { critical_count: criticalCount }, issues });
const critical = (id: string, remediation: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  severity: 'CRITICAL',
  remediation,
  ...extra,
});

describe('metrics.json checks', () => {
  const spend = { code: 'invalid_type', path: ['cumulative_cost_usd'], message: 'metrics.json: bad' };
  const entry = { code: 'invalid_type', path: ['stage_status', '07-code'], message: 'metrics.json: bad entry' };

  it('fails metrics:readable with a BLOCK signal on a refused file, and lists every metrics issue first', () => {
    const result = evaluateBuiltins(facts({ metricsIssues: [spend, entry] }));
    expect(result.checks.find((check) => check.id === 'metrics:readable')).toMatchObject({
      status: 'FAIL',
      rerunStages: [],
      detail: expect.stringContaining('$.cumulative_cost_usd: metrics.json: bad'),
    });
    expect(result.signals.filter((signal) => signal.kind === 'metrics_unreadable')).toHaveLength(1);
    expect(result.issues.slice(0, 2)).toEqual([spend, entry]);
  });

  it('keeps a pending stage pending with an unreadable entry, saying so, and adds no check for entries alone', () => {
    const result = evaluateBuiltins(facts({ metricsIssues: [entry], stageStatuses: {} }));
    expect(result.checks.map((check) => check.id)).not.toContain('metrics:readable');
    const code = result.checks.find((check) => check.id === 'stage:07-code');
    expect(code).toMatchObject({ status: 'PENDING', rerunStages: ['07-code'] });
    expect(code?.detail).toContain('no readable status');
    const passedAnyway = evaluateBuiltins(facts({ metricsIssues: [entry], stageStatuses: { '07-code': 'passed' } }));
    expect(passedAnyway.checks.find((check) => check.id === 'stage:07-code')?.detail).toBe('Stage 07-code passed.');
  });
});

describe('stage checks', () => {
  it.each([
    ['passed', 'PASS', [], []],
    ['failed', 'FAIL', ['07-code'], ['stage_failed']],
    ['pending', 'PENDING', ['07-code'], ['stage_pending']],
    ['blocked', 'FAIL', [], ['stage_blocked']],
    ['needs_context', 'PENDING', [], ['stage_awaiting_human']],
    ['awaiting_approval', 'PENDING', [], ['stage_awaiting_human']],
  ] as const)('a %s stage is %s with rerun %j and signals %j', (status, checkStatus, rerun, signals) => {
    const result = stageCheck('07-code', status);
    expect(result.check).toMatchObject({ id: 'stage:07-code', status: checkStatus, rerunStages: rerun });
    expect(result.signals.map((signal) => signal.kind)).toEqual(signals);
  });

  it('has one check per pipeline stage; a stage without status counts as pending', () => {
    const result = evaluateBuiltins(facts({ stageStatuses: { '03-documentation': 'passed' } }));
    expect(result.checks.map((check) => check.id)).toEqual([
      'stage:03-documentation',
      'stage:06-architecture',
      'stage:07-code',
      'stage:08-testing',
      'stage:11-feedback-loop',
    ]);
    expect(result.checks.slice(1).every((check) => check.status === 'PENDING')).toBe(true);
  });

  it('quotes what the runner said of a stage that did not pass (one full stop, at most 200 characters)', () => {
    const result = evaluateBuiltins(
      facts({
        stageStatuses: { ...statuses('passed'), '08-testing': 'failed' },
        stageDetails: { '07-code': 'ok', '08-testing': '3 of 12 tests failed.', '11-feedback-loop': 'x'.repeat(300) },
      }),
    );
    const details = Object.fromEntries(result.checks.map((check) => [check.id, check.detail]));
    expect(details['stage:07-code']).toBe('Stage 07-code passed.');
    expect(details['stage:08-testing']).toBe('Stage 08-testing failed: 3 of 12 tests failed.');
    expect(stageCheck('08-testing', 'failed', '3 of 12 tests failed.').check.detail).toBe(
      'Stage 08-testing failed: 3 of 12 tests failed.',
    );
    expect(stageCheck('08-testing', 'blocked', 'needs a licence').signals[0]?.message).toBe(
      'Stage 08-testing is blocked: needs a licence',
    );
    expect(stageCheck('08-testing', 'failed', '  ').check.detail).toBe('Stage 08-testing failed.');
    expect(stageCheck('x', 'failed', 'y'.repeat(300)).check.detail).toBe(`Stage x failed: ${'y'.repeat(199)}….`);
  });

  it('ignores statuses of stages outside the pipeline and prototype keys', () => {
    const result = evaluateBuiltins(facts({ stages: ['constructor'], stageStatuses: { other: 'failed' } }));
    expect(result.checks).toEqual([
      {
        id: 'stage:constructor',
        status: 'PENDING',
        detail: 'Stage constructor has not run.',
        rerunStages: ['constructor'],
      },
    ]);
  });
});

describe('feedback checks', () => {
  it('adds no feedback check when feedback.json is missing', () => {
    const result = evaluateBuiltins(facts());
    expect(result.checks.some((check) => check.id.startsWith('feedback:'))).toBe(false);
    expect(result.criticalCount).toBe(0);
  });

  it('fails feedback:readable on a malformed report and reruns the feedback stage', () => {
    const result = evaluateBuiltins(facts({ feedback: feedback({ issues: 'nope' }) }));
    const check = result.checks.find((item) => item.id === 'feedback:readable');
    expect(check).toMatchObject({ status: 'FAIL', rerunStages: [FEEDBACK] });
    expect(result.signals.map((signal) => signal.kind)).toContain('feedback_unreadable');
    expect(result.issues[0]?.message).toMatch(/^feedback\.json: /);
    expect(result.issues[0]?.path).toEqual(['issues']);
  });

  it('does not rerun a feedback stage that is not in the pipeline', () => {
    const result = evaluateBuiltins(
      facts({ stages: ['07-code'], stageStatuses: { '07-code': 'passed' }, feedback: feedback({ issues: 'nope' }) }),
    );
    expect(result.checks.find((item) => item.id === 'feedback:readable')?.rerunStages).toEqual([]);
  });

  it('passes feedback:criticals without critical issues', () => {
    const result = evaluateBuiltins(facts({ feedback: report([{ id: 'W1', severity: 'WARNING' }], 0) }));
    expect(result.checks.find((item) => item.id === 'feedback:criticals')?.status).toBe('PASS');
    expect(result.signals).toEqual([]);
  });

  it('counts max(summary.critical_count, CRITICAL issues listed)', () => {
    expect(
      evaluateBuiltins(facts({ feedback: report([critical('C1', { agent_to_rerun: '07-code' })], 3) })).criticalCount,
    ).toBe(3);
    expect(
      evaluateBuiltins(
        facts({
          feedback: report(
            [critical('C1', { agent_to_rerun: '07-code' }), critical('C2', { agent_to_rerun: '07-code' })],
            1,
          ),
        }),
      ).criticalCount,
    ).toBe(2);
    expect(
      evaluateBuiltins(facts({ feedback: report([critical('C1', { agent_to_rerun: '07-code' })], null) }))
        .criticalCount,
    ).toBe(1);
  });

  it('retries the stages critical issues map to, in pipeline order', () => {
    const result = evaluateBuiltins(
      facts({
        feedback: report([
          critical('C1', { agent_to_rerun: 'testing' }),
          critical('C2', { agent_to_rerun: 'agent.06-architecture' }),
          critical('C3', { agent_to_rerun: 'testing' }),
        ]),
      }),
    );
    const check = result.checks.find((item) => item.id === 'feedback:criticals');
    expect(check).toMatchObject({ status: 'FAIL', rerunStages: ['06-architecture', '08-testing'] });
    expect(result.signals.map((signal) => signal.kind)).toEqual(['critical_issue']);
  });

  it('blocks on a critical issue with neither a mappable agent nor can_auto_remediate', () => {
    const unmappable = evaluateBuiltins(facts({ feedback: report([critical('C1', { agent_to_rerun: 'marketing' })]) }));
    expect(unmappable.signals.map((signal) => signal.kind)).toEqual(['critical_issue', 'unremediable_critical']);
    expect(unmappable.signals[1]?.message).toContain('C1');
    const none = evaluateBuiltins(facts({ feedback: report([critical('C1', null)]) }));
    expect(none.signals.map((signal) => signal.kind)).toContain('unremediable_critical');
  });

  it('does not block an auto-remediable critical issue (flag on the issue or in remediation)', () => {
    for (const issue of [
      critical('C1', { can_auto_remediate: true }),
      critical('C1', null, { can_auto_remediate: true }),
    ]) {
      const result = evaluateBuiltins(facts({ feedback: report([issue]) }));
      expect(result.signals.map((signal) => signal.kind)).toEqual(['critical_issue']);
    }
  });

  it('reads severity case-insensitively', () => {
    expect(
      evaluateBuiltins(
        facts({ feedback: report([{ id: 'c', severity: 'critical', remediation: { agent_to_rerun: '07-code' } }]) }),
      ).criticalCount,
    ).toBe(1);
  });

  it('leaves all-passed stages passing', () => {
    const result = evaluateBuiltins(facts({ stageStatuses: statuses('passed') }));
    expect(result.checks.every((check) => check.status === 'PASS')).toBe(true);
  });
});
