import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  metricsStageIssues,
  type RstackRunFiles,
  stageStatusesFromRstack,
} from '../../../src/goal/core/rstack-stages.js';

const STAGES = ['03-documentation', '06-architecture', '07-code', '08-testing', '11-feedback-loop'];
const none: RstackRunFiles = { metrics: null, tasks: null, approvals: null, decisions: null };
const read = (files: Partial<RstackRunFiles>) => stageStatusesFromRstack({ ...none, ...files }, STAGES);

describe('stageStatusesFromRstack', () => {
  it('says nothing about any stage without rstack-agents files', () => {
    // Not even a key: a stage the files say nothing about is absent, not undefined.
    expect(read({})).toStrictEqual({});
  });

  it('reads metrics.json stage_status as rstack-agents writes it', () => {
    expect(
      read({
        metrics: {
          stage_status: {
            '03-documentation': 'PASS',
            '06-architecture': 'failed',
            '07-code': 'RUNNING',
            '08-testing': 'BLOCKED',
          },
        },
      }),
    ).toStrictEqual({
      '03-documentation': 'passed',
      '06-architecture': 'failed',
      '07-code': 'pending',
      '08-testing': 'blocked',
    });
  });

  it('reads tasks by stage_id, stage_artifacts and pipeline_agents', () => {
    expect(
      read({
        tasks: {
          tasks: [
            { id: 'T1', status: 'NEEDS_CONTEXT', stage_id: '03-documentation' },
            { id: 'T2', status: 'BLOCKED', stage_artifacts: [{ stage_id: '06-architecture' }] },
            { id: 'T3', status: 'FAILED', pipeline_agents: ['agent.07-code'] },
            { id: 'T4', status: 'DONE', stage_id: '08-testing' },
            { id: 'T5', status: 'PASS', stage_id: '08-testing' },
            'junk',
          ],
        },
      }),
    ).toEqual({
      '03-documentation': 'needs_context',
      '06-architecture': 'blocked',
      '07-code': 'failed',
      '08-testing': 'passed',
    });
  });

  it('a pending approval awaits approval; a pending decision (default stage 06-architecture) needs context', () => {
    expect(
      read({
        approvals: [
          { artifact: 'plan.json', stage_id: '07-code', status: 'pending' },
          { stage: '08-testing', status: 'approved' },
        ],
        decisions: {
          decisions: [
            { decision_id: 'DEC-001' },
            { decision_id: 'DEC-002', status: 'resolved', required_before_stage: '08-testing' },
          ],
        },
      }),
    ).toEqual({ '06-architecture': 'needs_context', '07-code': 'awaiting_approval' });
  });

  it("reads the stage of an approval from its artifact, as rstack-agents' approvals ledger names it", () => {
    const tasks = [{ id: '004-impl', status: 'BLOCKED', stage_id: '07-code' }];
    const metrics = { stage_status: Object.fromEntries(STAGES.map((stage) => [stage, 'PASS'])) };
    const pending = (artifact: string) =>
      read({ metrics, tasks, approvals: [{ id: 'app-1', artifact, status: 'PENDING' }] });
    expect(pending('stage-approval:06-architecture')['06-architecture']).toBe('awaiting_approval');
    expect(pending('08-testing')['08-testing']).toBe('awaiting_approval');
    expect(pending('guardrail-override:004-impl')['07-code']).toBe('awaiting_approval');
    expect(pending('destructive-action:004-impl')['07-code']).toBe('awaiting_approval');
    // A file name, a gate on no known task, a stage outside the pipeline: no stage to hold.
    for (const artifact of ['plan.md', 'guardrail-override:999-none', 'stage-approval:99-other'])
      expect(Object.values(pending(artifact))).not.toContain('awaiting_approval');
  });

  it('a human wait on a stage wins over its metrics status', () => {
    expect(
      read({
        metrics: { stage_status: { '07-code': 'PASS' } },
        tasks: [{ id: 'T1', status: 'NEEDS_CONTEXT', stage_id: '07-code' }],
      }),
    ).toEqual({ '07-code': 'needs_context' });
  });

  it('ignores shapes it cannot read and prototype keys', () => {
    expect(read({ metrics: { stage_status: 'PASS' }, tasks: 'x', approvals: {}, decisions: 7 })).toEqual({});
    expect(stageStatusesFromRstack({ ...none, metrics: { stage_status: {} } }, ['constructor'])).toEqual({});
  });
});

describe('metricsStageIssues', () => {
  it('names each unreadable entry of the stages read at its path, and nothing for known statuses', () => {
    const metrics = { stage_status: { a: 12, b: 'WAT', c: ' passed ', d: 'RUNNING', e: null, other: 5 } };
    expect(
      metricsStageIssues(metrics, ['a', 'b', 'c', 'd', 'e', 'f']).map((issue) => [issue.code, issue.path]),
    ).toEqual([
      ['invalid_type', ['stage_status', 'a']],
      ['invalid_value', ['stage_status', 'b']],
      ['invalid_type', ['stage_status', 'e']],
    ]);
    expect(metricsStageIssues(metrics, [])).toEqual([]);
    expect(metricsStageIssues({ stage_status: [] }, ['a']).map((issue) => issue.path)).toEqual([['stage_status']]);
    expect(metricsStageIssues({}, ['a'])).toEqual([]);
    expect(metricsStageIssues(null, ['a'])).toEqual([]);
  });

  it('never lets an entry that is not a string pass as silence (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const issues = metricsStageIssues({ stage_status: { s: value } }, ['s']);
        if (value !== undefined && typeof value !== 'string')
          expect(issues).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['stage_status', 's'] })]);
        // An entry with no issue gives the status stageStatusesFromRstack reads, or none when it is blank.
        if (issues.length === 0 && typeof value === 'string' && value.trim() !== '')
          expect(stageStatusesFromRstack({ ...none, metrics: { stage_status: { s: value } } }, ['s']).s).toBeDefined();
      }),
      { numRuns: 300 },
    );
  });
});
