import { describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/ports/clock.js';
import { feedbackReportSchema } from '../../src/review/contracts/feedback-report.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { cleanRun, list } from './fixtures.js';
import { NOW, OUTPUTS, RUN, writeRun } from './run-files.js';

describe('runConsistencyReview on the memory filesystem', () => {
  it('writes feedback.json, REMEDIATION_PLAN.md, their legacy copies and the task contract pair', async () => {
    const fs = createMemoryFileSystem();
    const run = cleanRun();
    list(run.test_report, 'test_cases').splice(1, 1);
    await writeRun(fs, run);
    const result = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(result.written).toEqual(OUTPUTS);
    const feedback = JSON.parse((await fs.readText(OUTPUTS[5] ?? '')) ?? 'null') as unknown;
    expect(feedbackReportSchema.parse(feedback)).toEqual(JSON.parse(JSON.stringify(result.report)));
    expect(await fs.readText(OUTPUTS[2] ?? '')).toBe(await fs.readText(OUTPUTS[5] ?? ''));
    expect(await fs.readText(OUTPUTS[3] ?? '')).toBe(result.remediationPlan);
    expect(result.report.issues.map((issue) => issue.rule)).toEqual(['traceability.story_without_test']);
    expect(result.remediationPlan).toContain('### FBK-001 — US-002 has no test case');
    expect(result.remediationPlan).toContain(
      '| FR-002 | Sign out | US-002 | src/auth/logout.ts | — | US-002 | **no** |',
    );
    const validation = JSON.parse((await fs.readText(OUTPUTS[1] ?? '')) ?? 'null') as {
      status: string;
      checks: { id: string; status: string }[];
      retry_recommendation: { stages: string[] };
    };
    expect(validation.status).toBe('FAIL');
    expect(validation.checks.find((check) => check.id === 'traceability.story_without_test')?.status).toBe('FAIL');
    expect(validation.checks.find((check) => check.id === 'traceability.requirement_without_story')?.status).toBe(
      'PASS',
    );
    expect(validation.retry_recommendation.stages).toEqual(['08-testing', '11-feedback-loop']);
    const builder = JSON.parse((await fs.readText(OUTPUTS[0] ?? '')) ?? 'null') as {
      agent: string;
      files_modified: string[];
    };
    expect(builder.agent).toBe('11-feedback-loop');
    expect(builder.files_modified).toContain('artifacts/stages/11-feedback-loop/feedback.json');
  });

  it('reads legacy paths when the canonical file is missing, and prefers the canonical one', async () => {
    const fs = createMemoryFileSystem();
    const run = cleanRun();
    await writeRun(fs, run, ['plan', 'code_report']);
    await fs.writeText(`${RUN}/artifacts/plan.json`, '{ not json');
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report.issues).toEqual([]);
    expect(report.analysis_scope.legacy_paths_used).toEqual([
      'artifacts/planning/sprint_plan.json',
      'artifacts/code/code_output.json',
    ]);
    await fs.writeText(`${RUN}/artifacts/stages/04-planning/plan.json`, '{ not json');
    const second = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(second.report.issues.map((issue) => [issue.rule, issue.affected_artifacts[0]])).toEqual([
      ['contract.malformed', 'artifacts/stages/04-planning/plan.json'],
    ]);
  });

  it('reads requirement_spec from the legacy name requirements.json', async () => {
    const fs = createMemoryFileSystem();
    const run = cleanRun();
    await writeRun(fs, { ...run, requirement_spec: undefined });
    await fs.writeText(
      `${RUN}/artifacts/stages/02-requirements/requirements.json`,
      JSON.stringify(run.requirement_spec),
    );
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report.issues).toEqual([]);
    expect(report.analysis_scope.legacy_paths_used).toEqual(['artifacts/stages/02-requirements/requirements.json']);
  });

  it('stamps goal_evaluation with the latest loop_iteration_started of events.jsonl and reads goal.json', async () => {
    const fs = createMemoryFileSystem();
    await writeRun(fs, cleanRun());
    const events = [1, 2, 3].map((iteration) =>
      JSON.stringify({ ts: NOW, type: 'loop_iteration_started', iteration, max_iterations: 5, goal_id: 'g' }),
    );
    await fs.writeText(
      `${RUN}/events.jsonl`,
      `${events.join('\n')}\n${JSON.stringify({ ts: NOW, type: 'goal_evaluated', iteration: 9, goal_id: 'g' })}\n{"torn`,
    );
    await fs.writeText(
      `${RUN}/goal.json`,
      JSON.stringify({
        schema_version: 1,
        goal_id: 'g',
        criteria: [
          { id: 'plan', kind: 'file_exists', path: 'artifacts/stages/04-planning/plan.json', run_relative: true },
          { id: 'escape', kind: 'file_exists', path: '/etc/passwd' },
        ],
      }),
    );
    const { report, taskId } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(taskId).toBe('11-feedback-loop-i3');
    expect(report.goal_evaluation).toMatchObject({ goal_id: 'g', iteration: 3, status: 'PASS' });
    expect(report.goal_evaluation.criteria.map((entry) => [entry.criterion_id, entry.result, entry.iteration])).toEqual(
      [
        ['plan', 'met', 3],
        ['escape', 'unknown', 3],
      ],
    );
  });

  it('an invalid goal.json asks a human; a clock stamps the report', async () => {
    const fs = createMemoryFileSystem();
    await writeRun(fs, cleanRun());
    await fs.writeText(
      `${RUN}/goal.json`,
      JSON.stringify({ schema_version: 1, criteria: [{ id: 'x', kind: 'magic' }] }),
    );
    const { report } = await runConsistencyReview({ fs, runDir: RUN, clock: { now: () => Date.UTC(2025, 0, 1) } });
    expect(report.timestamp).toBe('2025-01-01T00:00:00.000Z');
    expect(report.goal_evaluation).toMatchObject({ status: 'ASK_USER', criteria: [] });
  });

  it('without now or a clock, the shared systemClock stamps the report', async () => {
    const now = vi.spyOn(systemClock, 'now').mockReturnValue(Date.UTC(2030, 5, 1));
    try {
      const { report } = await runConsistencyReview({ fs: createMemoryFileSystem(), runDir: RUN });
      expect(report.timestamp).toBe('2030-06-01T00:00:00.000Z');
      expect(now).toHaveBeenCalled();
    } finally {
      now.mockRestore();
    }
  });

  it('an empty run directory is BLOCKED, not a throw', async () => {
    const fs = createMemoryFileSystem();
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report).toMatchObject({
      pipeline_status: 'BLOCKED',
      pipeline_complete: false,
      summary: { warning_count: 10 },
    });
  });
});
