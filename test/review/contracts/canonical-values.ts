import type { z } from 'zod';
import type { FastCheck } from '../../../src/kit/zod-fast-path.js';
import {
  codeFileSchema,
  codeReportSchema,
  isCanonicalCodeFile,
  isCanonicalCodeReport,
} from '../../../src/review/contracts/code-report.js';
import {
  deploymentReportSchema,
  isCanonicalDeploymentReport,
} from '../../../src/review/contracts/deployment-report.js';
import { documentationSchema, isCanonicalDocumentation } from '../../../src/review/contracts/documentation.js';
import {
  isCanonicalJiraTickets,
  isCanonicalStory,
  jiraTicketsSchema,
  userStorySchema,
} from '../../../src/review/contracts/jira-tickets.js';
import { isMetadataOnly, metadataOnlySchema } from '../../../src/review/contracts/metadata.js';
import { isCanonicalPlan, planSchema } from '../../../src/review/contracts/plan.js';
import {
  isCanonicalRequirement,
  isCanonicalRequirementSpec,
  requirementSchema,
  requirementSpecSchema,
} from '../../../src/review/contracts/requirement-spec.js';
import { isCanonicalSystemDesign, systemDesignSchema } from '../../../src/review/contracts/system-design.js';
import {
  isCanonicalTestCase,
  isCanonicalTestReport,
  testCaseSchema,
  testReportSchema,
} from '../../../src/review/contracts/test-report.js';
import { isCanonicalThreatModel, threatModelSchema } from '../../../src/review/contracts/threat-model.js';
import { cleanRun } from '../fixtures.js';

/** One valid item of each kind the contracts' item predicates read, with its schema and predicate. */
export const items: [string, z.ZodType, Record<string, unknown>, FastCheck][] = [
  [
    'requirement',
    requirementSchema,
    {
      id: 'FR-001',
      type: 'functional',
      category: 'security',
      title: 'Sign in',
      priority: 'must',
      acceptance: ['a'],
      source: 'x',
    },
    isCanonicalRequirement,
  ],
  [
    'user story',
    userStorySchema,
    {
      story_id: 'US-001',
      title: 't',
      linked_requirements: ['FR-001'],
      story_points: 3,
      sprint: 1,
      assignee: 'ana',
      blocked_by: ['US-002'],
      source: 'x',
    },
    isCanonicalStory,
  ],
  [
    'code file',
    codeFileSchema,
    {
      path: 'src/a.ts',
      implements: ['US-001'],
      service: 'auth',
      endpoints: ['GET /a'],
      tables: ['users'],
      mitigates: ['THR-001'],
      source: 'x',
    },
    isCanonicalCodeFile,
  ],
  [
    'test case',
    testCaseSchema,
    {
      id: 'TC-001',
      story_ids: ['US-001'],
      requirement_ids: ['FR-001'],
      controls: ['SC-001'],
      status: 'passed',
      source: 'x',
    },
    isCanonicalTestCase,
  ],
];

/** The clean run the documents are taken from. */
export const run = cleanRun();
/** Each document of the clean run, with its schema and predicate. */
export const documents: [string, z.ZodType, Record<string, unknown>, FastCheck][] = [
  ['requirement_spec', requirementSpecSchema, run.requirement_spec, isCanonicalRequirementSpec],
  ['jira_tickets', jiraTicketsSchema, run.jira_tickets, isCanonicalJiraTickets],
  ['code_report', codeReportSchema, run.code_report, isCanonicalCodeReport],
  ['test_report', testReportSchema, run.test_report, isCanonicalTestReport],
  ['documentation', documentationSchema, run.documentation, isCanonicalDocumentation],
  ['plan', planSchema, run.plan, isCanonicalPlan],
  ['system_design', systemDesignSchema, run.system_design, isCanonicalSystemDesign],
  ['deployment_report', deploymentReportSchema, run.deployment_report, isCanonicalDeploymentReport],
  ['threat_model', threatModelSchema, run.threat_model, isCanonicalThreatModel],
  ['summary (metadata only)', metadataOnlySchema, run.summary, isMetadataOnly],
];
