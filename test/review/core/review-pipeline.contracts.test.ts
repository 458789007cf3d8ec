import { describe, expect, it } from 'vitest';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../../../src/review/core/contract-slots.js';
import { reviewPipeline } from '../../../src/review/core/review-pipeline.js';
import { asContracts, cleanRun, reviewMutated, rulesOf, TIMESTAMP } from '../fixtures.js';

// How the review reads a run's contracts: missing, optional, malformed and legacy ones, and when too few make it
// BLOCKED.

const CORE = REVIEW_CONTRACT_SLOTS.filter((slot) => slot.kind === 'core');
const OPTIONAL = REVIEW_CONTRACT_SLOTS.filter((slot) => slot.kind === 'optional');

describe('reviewPipeline: reading the run', () => {
  it.each(CORE.map((slot) => [slot.key, slot.stage]))(
    'a missing %s is a WARNING "agent may not have run" for %s',
    (key, stage) => {
      const report = reviewMutated((run) => {
        delete (run as Partial<typeof run>)[key];
      });
      const missing = report.issues.filter((issue) => issue.rule === 'contract.missing');
      expect(missing).toHaveLength(1);
      expect(missing[0]).toMatchObject({
        severity: 'WARNING',
        source_agent: stage,
        remediation: { agent_to_rerun: stage },
      });
      expect(missing[0]?.description).toContain('agent may not have run');
      expect(report.analysis_scope.contracts_missing).toEqual([
        `artifacts/stages/${stage}/${REVIEW_CONTRACT_SLOTS.find((slot) => slot.key === key)?.artifact}`,
      ]);
      expect(report.pipeline_status).toBe('REVIEWED_AND_COMPLETE');
    },
  );

  it.each(OPTIONAL.map((slot) => [slot.key]))('a missing optional %s is never a finding', (key) => {
    const report = reviewMutated((run) => {
      delete (run as Partial<typeof run>)[key];
    });
    expect(report.issues).toEqual([]);
    expect(report.analysis_scope.contracts_missing).toEqual([]);
  });

  it.each(REVIEW_CONTRACT_SLOTS.map((slot) => [slot.key, slot.stage]))(
    'a %s of the wrong shape is CRITICAL MALFORMED with its issue paths',
    (key, stage) => {
      const report = reviewMutated((run) => {
        (run as Record<string, unknown>)[key] =
          key === 'transcript' || key === 'summary' || key === 'cost_estimate'
            ? ['not', 'an', 'object']
            : { ...run[key as ContractKey], ...shapeBreaker(key as ContractKey) };
      });
      const malformed = report.issues.filter((issue) => issue.rule === 'contract.malformed');
      expect(malformed).toHaveLength(1);
      expect(malformed[0]).toMatchObject({
        severity: 'CRITICAL',
        source_agent: stage,
        remediation: { agent_to_rerun: stage },
      });
      expect(malformed[0]?.title).toContain('MALFORMED');
      const scope = report.analysis_scope.contracts.find((entry) => entry.contract === key);
      expect(scope?.state).toBe('malformed');
      expect(scope?.issues.length).toBeGreaterThan(0);
      expect(malformed[0]?.description).toContain('$');
    },
  );

  it('a contract that is not JSON is CRITICAL MALFORMED', () => {
    const contracts = {
      ...asContracts(cleanRun()),
      plan: {
        state: 'invalid_json' as const,
        path: 'artifacts/stages/04-planning/plan.json',
        issues: [{ code: 'invalid_json', path: [], message: 'Not valid JSON: Unexpected token' }],
      },
    };
    const report = reviewPipeline(contracts, { timestamp: TIMESTAMP });
    expect(rulesOf(report)).toEqual(['contract.malformed']);
    expect(report.analysis_scope.contracts_malformed).toEqual(['artifacts/stages/04-planning/plan.json']);
  });

  it('more than half of the core contracts missing → BLOCKED', () => {
    const documents = cleanRun();
    const five = reviewPipeline(
      asContracts({
        ...documents,
        transcript: undefined,
        documentation: undefined,
        plan: undefined,
        summary: undefined,
        deployment_report: undefined,
      }),
      { timestamp: TIMESTAMP },
    );
    expect(five.pipeline_status).toBe('REVIEWED_AND_COMPLETE');
    const six = reviewPipeline(
      asContracts({
        ...documents,
        transcript: undefined,
        documentation: undefined,
        plan: undefined,
        summary: undefined,
        deployment_report: undefined,
        code_report: undefined,
      }),
      { timestamp: TIMESTAMP },
    );
    expect(six).toMatchObject({
      pipeline_status: 'BLOCKED',
      pipeline_complete: false,
      goal_evaluation: { status: 'RETRY' },
    });
    expect(six.goal_evaluation.recommended_rerun_stages).toEqual([
      '01-transcript',
      '03-documentation',
      '04-planning',
      '07-code',
      '09-deployment',
      '10-summary',
      '11-feedback-loop',
    ]);
  });

  it('records legacy paths in analysis_scope', () => {
    const contracts = {
      ...asContracts(cleanRun()),
      plan: {
        state: 'present' as const,
        path: 'artifacts/planning/sprint_plan.json',
        legacy: true,
        document: cleanRun().plan,
      },
    };
    const report = reviewPipeline(contracts, { timestamp: TIMESTAMP });
    expect(report.analysis_scope.legacy_paths_used).toEqual(['artifacts/planning/sprint_plan.json']);
    expect(report.analysis_scope.contracts_analyzed).toContain('artifacts/planning/sprint_plan.json');
    expect(report.analysis_scope.optional_agents_detected).toEqual([
      '12-security-threat-model',
      '13-compliance-checker',
      '14-cost-estimation',
    ]);
  });
});

// A field value that breaks each contract's schema.
function shapeBreaker(key: ContractKey): Record<string, unknown> {
  const breakers: Record<ContractKey, Record<string, unknown>> = {
    transcript: {},
    requirement_spec: { requirements: [{ id: 'FR-001', type: 'feature' }] },
    documentation: { documents: 'BRD.md' },
    plan: { sprints: [{ capacity_points: -1 }] },
    jira_tickets: { epics: [{ user_stories: [{ story_id: 7 }] }] },
    system_design: { services: [{}] },
    code_report: { files: [{ implements: 'FR-001' }] },
    test_report: { test_cases: [{ id: 'TC-001', status: 'green' }] },
    deployment_report: { environments: null },
    summary: {},
    threat_model: { threats: [{ id: 'THR-001', risk_level: 'SEVERE' }] },
    compliance_report: { requirements: [{}] },
    cost_estimate: {},
  };
  return breakers[key];
}
