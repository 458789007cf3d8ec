import type { z } from 'zod';
import type { ContractKey } from '../core/contract-slots.js';
import { type CodeReportContract, codeReportSchema, readCodeReport } from './code-report.js';
import { type DeploymentReportContract, deploymentReportSchema, readDeploymentReport } from './deployment-report.js';
import { type DocumentationContract, documentationSchema, readDocumentation } from './documentation.js';
import { type JiraTicketsContract, jiraTicketsSchema, readJiraTickets } from './jira-tickets.js';
import { type ContractRead, type MetadataOnlyContract, metadataOf, readMetadataOnly, readWith } from './metadata.js';
import { type PlanContract, planSchema, readPlan } from './plan.js';
import { type RequirementSpecContract, readRequirementSpec, requirementSpecSchema } from './requirement-spec.js';
import { complianceReportSchema, costEstimateSchema, summarySchema, transcriptSchema } from './supporting.js';
import { readSystemDesign, type SystemDesignContract, systemDesignSchema } from './system-design.js';
import { readTestReport, type TestReportContract, testReportSchema } from './test-report.js';
import { readThreatModel, type ThreatModelContract, threatModelSchema } from './threat-model.js';

/** The normalized content of each stage contract, by key. @public */
export interface ContractValues {
  readonly transcript: MetadataOnlyContract;
  readonly requirement_spec: RequirementSpecContract;
  readonly documentation: DocumentationContract;
  readonly plan: PlanContract;
  readonly jira_tickets: JiraTicketsContract;
  readonly system_design: SystemDesignContract;
  readonly code_report: CodeReportContract;
  readonly test_report: TestReportContract;
  readonly deployment_report: DeploymentReportContract;
  readonly summary: MetadataOnlyContract;
  readonly threat_model: ThreatModelContract;
  readonly compliance_report: MetadataOnlyContract;
  readonly cost_estimate: MetadataOnlyContract;
}

/** Every contract normalized, or null when it was missing or malformed. @public */
export type NormalizedContracts = { readonly [K in ContractKey]: ContractValues[K] | null };

/** The zod schema of each stage contract's canonical shape (tolerant of extra fields). @public */
export const stageContractSchemas: { readonly [K in ContractKey]: z.ZodType } = Object.freeze({
  transcript: transcriptSchema,
  requirement_spec: requirementSpecSchema,
  documentation: documentationSchema,
  plan: planSchema,
  jira_tickets: jiraTicketsSchema,
  system_design: systemDesignSchema,
  code_report: codeReportSchema,
  test_report: testReportSchema,
  deployment_report: deploymentReportSchema,
  summary: summarySchema,
  threat_model: threatModelSchema,
  compliance_report: complianceReportSchema,
  cost_estimate: costEstimateSchema,
});

type Readers = { readonly [K in ContractKey]: (input: unknown) => ContractRead<ContractValues[K]> };

// One reader per contract key: canonical shape first, rstack-agents' shape where it differs.
const READERS: Readers = {
  transcript: readMetadataOnly,
  requirement_spec: readRequirementSpec,
  documentation: readDocumentation,
  plan: readPlan,
  jira_tickets: readJiraTickets,
  system_design: readSystemDesign,
  code_report: readCodeReport,
  test_report: readTestReport,
  deployment_report: readDeploymentReport,
  summary: readMetadataOnly,
  threat_model: readThreatModel,
  compliance_report: (input) => readWith(complianceReportSchema, input, (parsed) => ({ meta: metadataOf(parsed) })),
  cost_estimate: readMetadataOnly,
};

/** Reads one stage contract's parsed JSON into its normalized form, or returns every issue that makes it malformed (with JSON paths). @public */
export function readStageContract<K extends ContractKey>(key: K, input: unknown): ContractRead<ContractValues[K]> {
  const reader = READERS[key] as (input: unknown) => ContractRead<ContractValues[K]>;
  return reader(input);
}
