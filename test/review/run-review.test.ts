import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { systemClock } from '../../src/ports/clock.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { feedbackReportSchema } from '../../src/review/contracts/feedback-report.js';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { cleanRun, list } from './fixtures.js';
import { schemaErrors } from './shipped-schemas.js';

const RUN = '.goal-loop/runs/r-1';
const NOW = '2025-01-31T12:00:00.000Z';

// Writes a run's documents at their canonical paths (or a legacy one for the keys in `legacy`).
async function writeRun(
  fs: FileSystem,
  documents: Partial<Record<ContractKey, unknown>>,
  legacy: readonly ContractKey[] = [],
): Promise<void> {
  for (const slot of REVIEW_CONTRACT_SLOTS) {
    const document = documents[slot.key];
    if (document === undefined) continue;
    const path = legacy.includes(slot.key) ? slot.legacyPaths[0] : slot.canonicalPath;
    await fs.writeText(`${RUN}/${path}`, JSON.stringify(document));
  }
}

const OUTPUTS = [
  `${RUN}/tasks/11-feedback-loop/builder.json`,
  `${RUN}/tasks/11-feedback-loop/validation.json`,
  `${RUN}/artifacts/feedback/consistency_report.json`,
  `${RUN}/artifacts/feedback/REMEDIATION_PLAN.md`,
  `${RUN}/artifacts/stages/11-feedback-loop/REMEDIATION_PLAN.md`,
  `${RUN}/artifacts/stages/11-feedback-loop/feedback.json`,
];

// What a run directory holds before a review: documents at their canonical paths, raw text for some, events, a goal.
interface RunSetup {
  readonly documents: Partial<Record<ContractKey, unknown>>;
  readonly text?: Partial<Record<ContractKey, string>>;
  readonly events?: readonly string[];
  readonly goal?: unknown;
  /** What the report must say, so each case is the case it claims to be. */
  readonly expected: object;
}

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

describe('runConsistencyReview outputs against the shipped schemas/feedback.schema.json', () => {
  // The review's written feedback.json and its legacy copy consistency_report.json, parsed.
  async function writtenReports(fs: FileSystem): Promise<unknown[]> {
    return Promise.all(
      [OUTPUTS[5], OUTPUTS[2]].map(async (path) => JSON.parse((await fs.readText(path ?? '')) ?? 'null')),
    );
  }

  it.each([
    [
      'a clean run',
      (): RunSetup => ({
        documents: cleanRun(),
        expected: { pipeline_status: 'REVIEWED_AND_COMPLETE', summary: { total_issues: 0 } },
      }),
    ],
    [
      'CRITICAL and WARNING findings and a bug swarm',
      (): RunSetup => {
        const run = cleanRun();
        list(run.test_report, 'test_cases').splice(0);
        list(run.requirement_spec, 'requirements').push({ id: 'FR-003', type: 'functional', title: 'Orphan' });
        run.code_report.contract_version = '1.0';
        return { documents: run, expected: { summary: { critical_count: 5, warning_count: 4 }, bug_swarms: [{}] } };
      },
    ],
    [
      'a goal, stamped with the loop iteration, with met, not_met and unknown criteria',
      (): RunSetup => ({
        documents: cleanRun(),
        events: [1, 2].map((iteration) =>
          JSON.stringify({ ts: NOW, type: 'loop_iteration_started', iteration, max_iterations: 5, goal_id: 'g' }),
        ),
        goal: {
          schema_version: 1,
          goal_id: 'g',
          criteria: [
            { id: 'plan', kind: 'file_exists', path: 'artifacts/stages/04-planning/plan.json', run_relative: true },
            {
              id: 'score',
              kind: 'metric_threshold',
              source: 'feedback',
              metric: 'summary.overall_consistency_score',
              operator: '>',
              value: 100,
              rerun_stages: ['08-testing'],
            },
            { id: 'review', kind: 'judge', question: 'Is the design sound?' },
          ],
        },
        expected: {
          goal_evaluation: {
            iteration: 2,
            criteria: [{ result: 'met' }, { result: 'not_met' }, { result: 'unknown' }],
          },
        },
      }),
    ],
    [
      'an invalid goal.json',
      (): RunSetup => ({
        documents: cleanRun(),
        goal: { schema_version: 1, criteria: [{ id: 'x', kind: 'magic' }] },
        expected: { goal_evaluation: { status: 'ASK_USER', criteria: [] } },
      }),
    ],
    ['an empty run directory (BLOCKED)', (): RunSetup => ({ documents: {}, expected: { pipeline_status: 'BLOCKED' } })],
    [
      'malformed contracts (a bad shape, bad JSON)',
      (): RunSetup => ({
        documents: { ...cleanRun(), plan: { sprints: 'none' } },
        text: { test_report: '{"test_cases": [' },
        expected: {
          analysis_scope: {
            contracts_malformed: [
              'artifacts/stages/04-planning/plan.json',
              'artifacts/stages/08-testing/test_report.json',
            ],
          },
        },
      }),
    ],
  ])('%s: feedback.json and consistency_report.json validate', async (_name, setup) => {
    const fs = createMemoryFileSystem();
    const { documents, events, goal, text, expected } = setup();
    await writeRun(fs, documents);
    for (const [key, content] of Object.entries(text ?? {})) {
      const slot = REVIEW_CONTRACT_SLOTS.find((candidate) => candidate.key === key);
      await fs.writeText(`${RUN}/${slot?.canonicalPath ?? ''}`, content);
    }
    if (events !== undefined) await fs.writeText(`${RUN}/events.jsonl`, `${events.join('\n')}\n`);
    if (goal !== undefined) await fs.writeText(`${RUN}/goal.json`, JSON.stringify(goal));
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report).toMatchObject(expected);
    for (const written of await writtenReports(fs)) expect(schemaErrors('feedback.schema.json', written)).toEqual([]);
  });

  it('the schema rejects a report that breaks it, so validating means something', async () => {
    const fs = createMemoryFileSystem();
    await writeRun(fs, cleanRun());
    await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    const [report] = (await writtenReports(fs)) as Record<string, unknown>[];
    expect(schemaErrors('feedback.schema.json', { ...report, summary: undefined })).not.toEqual([]);
    expect(schemaErrors('feedback.schema.json', { ...report, pipeline_status: 'MAYBE' })).not.toEqual([]);
  });
});

describe('runConsistencyReview on the real filesystem', () => {
  let root = '';
  afterEach(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  it('writes every output file atomically under the run directory', async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-review-'));
    const fs = createNodeFileSystem(root);
    const run = cleanRun();
    run.code_report.contract_version = '1.0';
    await writeRun(fs, run);
    await fs.writeText(`${RUN}/artifacts/stages/08-testing/test_report.json`, '{"test_cases": [');
    const result = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    for (const path of OUTPUTS) expect((await readFile(join(root, path), 'utf8')).length).toBeGreaterThan(0);
    const feedback = JSON.parse(await readFile(join(root, OUTPUTS[5] ?? ''), 'utf8')) as unknown;
    expect(feedbackReportSchema.safeParse(feedback).success).toBe(true);
    expect(result.report.issues.map((issue) => issue.rule)).toEqual([
      'contract.malformed',
      'versions.version_mismatch',
    ]);
    expect(result.report.analysis_scope.contracts_malformed).toEqual(['artifacts/stages/08-testing/test_report.json']);
    expect(await readFile(join(root, OUTPUTS[4] ?? ''), 'utf8')).toContain('## Critical issues');
  });
});

describe('runConsistencyReview write order', () => {
  it('writes the canonical feedback.json last, after every other output has landed', async () => {
    const memory = createMemoryFileSystem();
    await writeRun(memory, cleanRun());
    const landed: string[] = [];
    const fs: FileSystem = {
      ...memory,
      root: memory.root,
      writeText: async (path, text) => {
        await memory.writeText(path, text);
        landed.push(path);
      },
    };
    const { written } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(landed.at(-1)).toBe(`${RUN}/artifacts/stages/11-feedback-loop/feedback.json`);
    expect([...landed].sort()).toEqual([...written].sort());
  });
});
