// A programme with far more findings than a reader can use: each rule lists its first findings in issues[], the rest
// are counted in omitted_issues and still scored, feedback.json stays small (compact past the pretty-print limit)
// and every output validates against the shipped schema.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FeedbackReport } from '../../src/review/contracts/feedback-report.js';
import { REVIEW_OUTPUT_PATHS } from '../../src/review/core/contract-slots.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { schemaErrors } from './shipped-schemas.js';

const RUN = 'runs/big';
const NOW = '2025-01-31T12:00:00.000Z';
const META = { contract_version: '1.1', produced_by: 'test', timestamp: '2025-01-31T10:00:00Z' };

// The contracts of a programme of `count` functional requirements and no stories, code or tests, by canonical path
// (the six other core contracts are missing: six WARNINGs).
function programme(count: number): Record<string, string> {
  const requirements = Array.from({ length: count }, (_, index) => ({
    id: `FR-${String(index + 1).padStart(6, '0')}`,
    type: 'functional',
    title: `Requirement ${index + 1}`,
  }));
  return {
    'artifacts/stages/02-requirements/requirement_spec.json': JSON.stringify({ ...META, requirements }),
    'artifacts/stages/05-jira/jira_tickets.json': JSON.stringify({ ...META, epics: [] }),
    'artifacts/stages/07-code/code_report.json': JSON.stringify({ ...META, files: [] }),
    'artifacts/stages/08-testing/test_report.json': JSON.stringify({ ...META, test_cases: [] }),
  };
}

describe('a review of more findings than issues[] lists', () => {
  let root = '';
  afterEach(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  it('lists maxIssuesPerRule per rule, counts the rest in omitted_issues, and scores them all', async () => {
    const fs = createMemoryFileSystem();
    for (const [path, text] of Object.entries(programme(25))) await fs.writeText(`${RUN}/${path}`, text);
    const { report, remediationPlan } = await runConsistencyReview({ fs, runDir: RUN, now: NOW, maxIssuesPerRule: 10 });
    const ofRule = (rule: string) => report.issues.filter((issue) => issue.rule === rule);
    expect(ofRule('traceability.requirement_without_story').map((issue) => issue.related_ids?.[0])).toEqual(
      Array.from({ length: 10 }, (_, index) => `FR-${String(index + 1).padStart(6, '0')}`),
    );
    expect(report.omitted_issues).toContainEqual(
      expect.objectContaining({
        rule: 'traceability.requirement_without_story',
        severity: 'CRITICAL',
        listed: 10,
        omitted: 15,
        example_ids: Array.from({ length: 10 }, (_, index) => `FR-${String(index + 11).padStart(6, '0')}`),
      }),
    );
    expect(report.summary).toMatchObject({ critical_count: 50, warning_count: 25 + 6, overall_consistency_score: 0 });
    expect(report.summary.total_issues).toBe(report.issues.length + 45);
    expect(schemaErrors('feedback.schema.json', report)).toEqual([]);
    expect(remediationPlan).toContain('## Findings not listed');
    expect(remediationPlan).toContain(
      '`traceability.requirement_without_story` (CRITICAL): 15 more beyond the 10 listed',
    );
    const validation = JSON.parse((await fs.readText(`${RUN}/tasks/11-feedback-loop/validation.json`)) ?? '{}') as {
      checks: { id: string; detail: string }[];
    };
    expect(validation.checks.find((check) => check.id === 'traceability.requirement_without_story')?.detail).toContain(
      'and 15 more not listed (omitted_issues)',
    );
  });

  it('on the real filesystem, 20,000 uncovered requirements give a compact feedback.json of bounded size', async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-review-bounded-'));
    for (const [path, text] of Object.entries(programme(20_000))) {
      await mkdir(join(root, RUN, path, '..'), { recursive: true });
      await writeFile(join(root, RUN, path), text);
    }
    const fs = createNodeFileSystem(root);
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report.issues.length).toBeLessThanOrEqual(3 * 1000 + 20);
    expect(report.summary.critical_count).toBe(40_000);
    expect(report.traceability_matrix.requirements).toHaveLength(20_000);
    const path = join(root, RUN, REVIEW_OUTPUT_PATHS.feedback);
    // Before the cap: 60,000 pretty-printed issues, about 66 MB.
    expect((await stat(path)).size).toBeLessThan(8 * 1024 * 1024);
    const text = await readFile(path, 'utf8');
    expect(text.split('\n')).toHaveLength(2);
    const written = JSON.parse(text) as FeedbackReport;
    expect(written.omitted_issues?.map((entry) => entry.omitted)).toEqual([19_000, 19_000, 19_000]);
    expect(schemaErrors('feedback.schema.json', written)).toEqual([]);
  }, 60_000);
});

describe('an id longer than any id (MAX_ID_LENGTH)', () => {
  it('makes its contract malformed at the id, so a huge id is never repeated into the outputs', async () => {
    const huge = `FR-${'9'.repeat(5_000_000)}`;
    const files = {
      ...programme(3),
      'artifacts/stages/05-jira/jira_tickets.json': JSON.stringify({
        ...META,
        epics: [{ user_stories: [{ story_id: 'US-001', title: 's', linked_requirements: [huge, 'FR-000001'] }] }],
      }),
    };
    const fs = createMemoryFileSystem({
      files: Object.fromEntries(Object.entries(files).map(([p, t]) => [`${RUN}/${p}`, t])),
    });
    const { report, written } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report.issues.filter((issue) => issue.rule === 'contract.malformed')).toMatchObject([
      {
        severity: 'CRITICAL',
        description: expect.stringContaining(
          '$.epics[0].user_stories[0].linked_requirements[0]: an id has at most 256 characters (this one has 5000003)',
        ),
      },
    ]);
    let bytes = 0;
    for (const path of written) bytes += ((await fs.readText(path)) ?? '').length;
    expect(bytes).toBeLessThan(200_000);
  });
});
