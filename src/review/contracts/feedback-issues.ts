// The issues of feedback.json: each listed issue with its severity and remediation, the findings of a rule counted
// past its cap (omitted_issues), and the bug swarms that share one remediation.
import { z } from 'zod';
import { maintenanceCategorySchema } from '../../goal-shared.js';

/** The severities of feedback.json issues. @public */
export const severitySchema = z.enum(['CRITICAL', 'WARNING', 'INFO']);

/** The remediation of one issue. @public */
export const remediationSchema = z.looseObject({
  action: z.string().describe('What needs to be done; names what to read first when it touches baseline code.'),
  agent_to_rerun: z.string().nullable().describe('The stage id to rerun (e.g. "08-testing"), or null.'),
  estimated_effort: z.string(),
  can_auto_remediate: z.boolean(),
  maintenance_category: maintenanceCategorySchema,
  read_first: z.array(z.string()).optional(),
  bug_swarm_id: z
    .string()
    .optional()
    .describe('Set when the issue belongs to a bug swarm; the swarm carries the one remediation.'),
});

/** One issue of feedback.json. @public */
export const feedbackIssueSchema = z.looseObject({
  id: z.string().min(1).describe('FBK-001, FBK-002, … in report order.'),
  severity: severitySchema,
  category: z
    .string()
    .describe(
      'contract_availability | traceability | architecture_code_sync | sprint_capacity | security_compliance | documentation | cross_contract | remediation | adoption',
    ),
  rule: z.string().optional().describe('The review rule broken, e.g. "traceability.story_without_test".'),
  title: z.string(),
  description: z.string(),
  source_agent: z.string().describe('The stage whose contract shows the problem.'),
  affected_artifacts: z.array(z.string()),
  related_ids: z.array(z.string()).optional(),
  module: z.string().optional(),
  baseline: z.boolean().optional(),
  remediation: remediationSchema,
});

/** A feedback.json issue. @public */
export type FeedbackIssue = z.output<typeof feedbackIssueSchema>;

/**
 * One `omitted_issues` entry: the findings of one rule past the per-rule cap of `issues[]` (baseline findings of an
 * adopted run counted apart). @public
 */
export const omittedIssuesSchema = z.looseObject({
  rule: z.string().describe('The review rule, e.g. "traceability.requirement_without_story".'),
  category: z.string(),
  severity: severitySchema,
  baseline: z.boolean().optional(),
  listed: z.int().min(0).describe('Issues of this rule listed in issues[].'),
  omitted: z.int().min(1).describe('Further findings of this rule, counted here and not listed.'),
  title: z.string().describe("The rule's title."),
  source_agent: z.string(),
  affected_artifacts: z.array(z.string()),
  example_ids: z.array(z.string()).describe('The ids of the first omitted findings.'),
});

/** An `omitted_issues` entry. @public */
export type OmittedIssues = z.output<typeof omittedIssuesSchema>;

/** A bug swarm: three or more corrective issues on one module, one preventive remediation. @public */
export const bugSwarmSchema = z.looseObject({
  id: z.string(),
  module: z.string(),
  issue_ids: z.array(z.string()),
  remediation: remediationSchema,
});

/** A bug swarm. @public */
export type BugSwarm = z.output<typeof bugSwarmSchema>;
