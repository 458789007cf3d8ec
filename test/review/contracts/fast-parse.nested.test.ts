// A mutated item inside its document: the document's fast path accepts it exactly when zod accepts the document.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { FastCheck } from '../../../src/kit/zod-fast-path.js';
import { codeReportSchema, isCanonicalCodeReport } from '../../../src/review/contracts/code-report.js';
import {
  deploymentReportSchema,
  isCanonicalDeploymentReport,
} from '../../../src/review/contracts/deployment-report.js';
import { documentationSchema, isCanonicalDocumentation } from '../../../src/review/contracts/documentation.js';
import { isCanonicalJiraTickets, jiraTicketsSchema } from '../../../src/review/contracts/jira-tickets.js';
import { isCanonicalPlan, planSchema } from '../../../src/review/contracts/plan.js';
import { isCanonicalRequirementSpec, requirementSpecSchema } from '../../../src/review/contracts/requirement-spec.js';
import { isCanonicalSystemDesign, systemDesignSchema } from '../../../src/review/contracts/system-design.js';
import { isCanonicalTestReport, testReportSchema } from '../../../src/review/contracts/test-report.js';
import { isCanonicalThreatModel, threatModelSchema } from '../../../src/review/contracts/threat-model.js';
import { items, run } from './canonical-values.js';
import { expectEquivalent, mutated } from './fast-path-mutations.js';

describe('fast validation path', () => {
  const threat = { id: 'THR-001', risk_level: 'HIGH', affected_component: 'auth', mitigation: 'rate limit' };
  const nested: [string, z.ZodType, FastCheck, Record<string, unknown>, (item: unknown) => unknown][] = [
    [
      'requirement',
      requirementSpecSchema,
      isCanonicalRequirementSpec,
      items[0]?.[2] ?? {},
      (item) => ({ ...run.requirement_spec, requirements: [item] }),
    ],
    [
      'user story',
      jiraTicketsSchema,
      isCanonicalJiraTickets,
      items[1]?.[2] ?? {},
      (item) => ({ ...run.jira_tickets, epics: [{ epic_id: 'E-1', user_stories: [item] }] }),
    ],
    [
      'epic',
      jiraTicketsSchema,
      isCanonicalJiraTickets,
      { epic_id: 'E-1', epic_name: 'n', user_stories: [] },
      (item) => ({ ...run.jira_tickets, epics: [item] }),
    ],
    [
      'code file',
      codeReportSchema,
      isCanonicalCodeReport,
      items[2]?.[2] ?? {},
      (item) => ({ ...run.code_report, files: [item] }),
    ],
    [
      'test case',
      testReportSchema,
      isCanonicalTestReport,
      items[3]?.[2] ?? {},
      (item) => ({ ...run.test_report, test_cases: [item] }),
    ],
    [
      'document',
      documentationSchema,
      isCanonicalDocumentation,
      { type: 'BRD', path: 'docs/BRD.md', covers: ['FR-001'] },
      (item) => ({ ...run.documentation, documents: [item] }),
    ],
    [
      'sprint',
      planSchema,
      isCanonicalPlan,
      { sprint: 1, capacity_points: 16 },
      (item) => ({ ...run.plan, sprints: [item] }),
    ],
    [
      'milestone',
      planSchema,
      isCanonicalPlan,
      { id: 'M1', name: 'MVP' },
      (item) => ({ ...run.plan, milestones: [item] }),
    ],
    [
      'service',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { name: 'auth' },
      (item) => ({ ...run.system_design, services: [item] }),
    ],
    [
      'endpoint',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { method: 'POST', path: '/login', service: 'auth' },
      (item) => ({ ...run.system_design, api_endpoints: [item] }),
    ],
    [
      'database',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { tables: ['users', { name: 'roles' }] },
      (item) => ({ ...run.system_design, database: item }),
    ],
    [
      'table',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { name: 'users' },
      (item) => ({ ...run.system_design, database: { tables: [item] } }),
    ],
    [
      'security control',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { id: 'SC-001', description: 'bcrypt', nfr_ids: ['NFR-001'] },
      (item) => ({ ...run.system_design, security_controls: [item] }),
    ],
    [
      'environment',
      deploymentReportSchema,
      isCanonicalDeploymentReport,
      { name: 'production' },
      (item) => ({ ...run.deployment_report, environments: [item] }),
    ],
    ['threat', threatModelSchema, isCanonicalThreatModel, threat, (item) => ({ ...run.threat_model, threats: [item] })],
    [
      'mitigation',
      threatModelSchema,
      isCanonicalThreatModel,
      { description: 'd', implementation_location: 'src/a.ts' },
      (item) => ({ ...run.threat_model, threats: [{ ...threat, mitigation: item }] }),
    ],
  ];

  it.each(nested)(
    'a mutated %s is accepted in its document exactly when zod accepts the document',
    (_name, schema, fast, valid, wrap) => {
      expect(fast(wrap(valid))).toBe(true);
      fc.assert(
        fc.property(mutated(valid, Object.keys(valid)), (item) => expectEquivalent(schema, fast, wrap(item))),
        { numRuns: 500 },
      );
    },
  );
});
