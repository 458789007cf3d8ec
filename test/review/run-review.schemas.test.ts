import { describe, expect, it } from 'vitest';
import type { FileSystem } from '../../src/ports/file-system.js';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { cleanRun, list } from './fixtures.js';
import { NOW, OUTPUTS, RUN, writeRun } from './run-files.js';
import { schemaErrors } from './shipped-schemas.js';

// What a run directory holds before a review: documents at their canonical paths, raw text for some, events, a goal.
interface RunSetup {
  readonly documents: Partial<Record<ContractKey, unknown>>;
  readonly text?: Partial<Record<ContractKey, string>>;
  readonly events?: readonly string[];
  readonly goal?: unknown;
  /** What the report must say, so each case is the case it claims to be. */
  readonly expected: object;
}

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
