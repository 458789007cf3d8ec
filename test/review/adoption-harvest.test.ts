// The artifacts rstack-agents' `adopt` really writes (src/core/adopt/harvest.js, stageArtifactBody + adopted_at/evidence) review cleanly.
import { describe, expect, it } from 'vitest';
import { readStageContract } from '../../src/review/contracts/registry.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

const RUN = '.rstack/runs/adopt-1';
const NOW = '2025-01-30T09:00:00.000Z';
const base = { source: 'brownfield-adoption', status: 'PASS' };
const stamp = (evidence: string[]) => ({ adopted_at: NOW, evidence });

// One harvested artifact per stage, at its canonical path, exactly as harvest.js writes it.
const HARVEST: Record<string, unknown> = {
  'artifacts/stages/02-requirements/requirement_spec.json': {
    ...base,
    note: 'Baseline requirements live in the existing docs below.',
    requirement_sources: ['README.md', 'docs/billing.md'],
    functional: [],
    ...stamp(['README.md', 'docs/billing.md']),
  },
  'artifacts/stages/03-documentation/documentation.json': {
    ...base,
    docs: ['README.md', 'docs/billing.md'],
    ...stamp(['README.md', 'docs/billing.md']),
  },
  'artifacts/stages/06-architecture/system_design.json': {
    ...base,
    tech_stack: { languages: ['javascript', 'typescript'], frameworks: ['express', 'vitest'] },
    structure: ['src', 'test'],
    note: 'Inferred baseline — refine with a deliberate 06-architecture run before large changes.',
    ...stamp(['package.json', 'tsconfig.json', 'src/', 'test/']),
  },
  'artifacts/stages/07-code/code_report.json': {
    ...base,
    existing_codebase: true,
    top_level_dirs: ['src', 'test'],
    test_command: 'npm test',
    ...stamp(['src/', 'test/']),
  },
  'artifacts/stages/08-testing/test_report.json': {
    ...base,
    baseline: true,
    executed: false,
    note: 'Tests detected but NOT executed during adoption.',
    test_dirs: [{ dir: 'test', files: 12 }],
    configs: ['vitest.config.ts'],
    test_command: 'npm test',
    ...stamp(['test/', 'vitest.config.ts']),
  },
  'artifacts/stages/09-deployment/deployment_report.json': {
    ...base,
    ci_pipelines: ['.github/workflows/ci.yml'],
    deploy_configs: ['Dockerfile'],
    ...stamp(['.github/workflows/ci.yml', 'Dockerfile']),
  },
  'manifest.json': {
    schema_version: 2,
    run_id: 'adopt-1',
    created_at: NOW,
    updated_at: NOW,
    goal: 'adopt',
    mode: 'adopt',
    status: 'IN_PROGRESS',
    project_root: '/repo',
    adopted: true,
  },
};

describe('rstack-agents adoption harvest shapes', () => {
  it('reads the harvested 06, 07 and 09 artifacts of an adopted run instead of reporting them MALFORMED', async () => {
    const fs = createMemoryFileSystem();
    for (const [path, document] of Object.entries(HARVEST))
      await fs.writeText(`${RUN}/${path}`, JSON.stringify(document));
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report.analysis_scope.mode).toBe('adopt');
    expect(report.analysis_scope.contracts_malformed).toEqual([]);
    expect(report.issues.map((issue) => issue.rule)).not.toContain('contract.malformed');
    expect(report.analysis_scope.contracts_analyzed).toEqual(
      expect.arrayContaining([
        'artifacts/stages/06-architecture/system_design.json',
        'artifacts/stages/07-code/code_report.json',
        'artifacts/stages/09-deployment/deployment_report.json',
      ]),
    );
    expect(report.summary.critical_count).toBe(0);
    expect(report.goal_evaluation).toMatchObject({ status: 'PASS', recommended_rerun_stages: [] });
  });

  it('extracts nothing the harvest cannot express: no services, files, environments or deployed stories', () => {
    const at = (stage: string) => HARVEST[Object.keys(HARVEST).find((path) => path.includes(stage)) ?? ''];
    const design = readStageContract('system_design', at('06-architecture'));
    expect(design).toMatchObject({
      ok: true,
      value: { services: [], endpoints: [], tables: [], controls: [], meta: { harvested: true } },
    });
    const code = readStageContract('code_report', at('07-code'));
    expect(code).toMatchObject({ ok: true, value: { files: [], meta: { harvested: true } } });
    expect(readStageContract('code_report', { ...(at('07-code') as object), test_command: null }).ok).toBe(true);
    const deployment = readStageContract('deployment_report', at('09-deployment'));
    expect(deployment).toMatchObject({
      ok: true,
      value: { deployedStories: null, environments: [], meta: { harvested: true } },
    });
  });

  it('accepts the harvest shapes only from an adoption: the same fields without the brownfield source stay MALFORMED', () => {
    expect(readStageContract('system_design', { tech_stack: { languages: [] }, structure: ['src'] }).ok).toBe(false);
    expect(readStageContract('code_report', { existing_codebase: true, top_level_dirs: ['src'] }).ok).toBe(false);
    expect(readStageContract('deployment_report', { source: 'pipeline', ci_pipelines: ['ci.yml'] }).ok).toBe(false);
    expect(readStageContract('code_report', { source: 'brownfield-adoption', top_level_dirs: 'src' }).ok).toBe(false);
  });
});
