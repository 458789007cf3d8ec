// The deliberate differences of docs/interop-rstack.md as rules: each names one row of the doc (its table and its
// first cell, quoted) and says, from the generated input alone, whether the run holds what the row is about.
import type { Decision } from './evaluate.js';
import type { RunSpec } from './generate.js';

/** One row of docs/interop-rstack.md as a rule. */
export interface Rule {
  readonly id: string;
  readonly table: string;
  /** The row's first cell, as the doc writes it. */
  readonly row: string;
  /** True when the input holds what the row is about; absent for rows no single evaluation exercises. */
  readonly holds?: (spec: RunSpec) => boolean;
  /** For rows about the decision's shape: true when rstack-agents' decision, so reshaped, is goal-loop's. */
  readonly reshapes?: (rstack: Decision, spec: RunSpec) => Decision;
}

const FEEDBACK_STAGE = '11-feedback-loop';
const label = (name: string) => (spec: RunSpec) => spec.labels.has(name);

// Orders stages by the pipeline (stages outside it last), dropping repeats.
function inPipelineOrder(stages: readonly string[], pipeline: readonly string[]): string[] {
  const rank = (stage: string): number => (pipeline.includes(stage) ? pipeline.indexOf(stage) : pipeline.length);
  return [...new Set(stages)].sort((a, b) => rank(a) - rank(b));
}

/** Every row, in the doc's order (D1…D33 as first written, D34… added since, each in its table). */
export const RULES: readonly Rule[] = [
  { id: 'D1', table: 'Decisions', row: 'pending stages rerun', holds: label('pending-stage') },
  { id: 'D2', table: 'Decisions', row: 'judges are asked last', holds: label('judge-waiting') },
  { id: 'D3', table: 'Decisions', row: 'the score counts each stage', holds: label('min-score-below-100') },
  {
    id: 'D4',
    table: 'Decisions',
    row: 'the feedback stage reruns after upstream work',
    reshapes: (rstack, spec) => {
      const ordered = inPipelineOrder(rstack.rerun, spec.pipeline);
      const at = spec.pipeline.indexOf(FEEDBACK_STAGE);
      const upstream = ordered.some((stage) => spec.pipeline.indexOf(stage) >= 0 && spec.pipeline.indexOf(stage) < at);
      const refreshed = at >= 0 && upstream ? inPipelineOrder([...ordered, FEEDBACK_STAGE], spec.pipeline) : ordered;
      return { status: rstack.status, rerun: refreshed };
    },
  },
  {
    id: 'D5',
    table: 'Decisions',
    row: 'rerun order',
    reshapes: (rstack, spec) => ({ status: rstack.status, rerun: inPipelineOrder(rstack.rerun, spec.pipeline) }),
  },
  { id: 'D6', table: 'Decisions', row: 'progress counts observed values' },
  { id: 'D34', table: 'Decisions', row: 'a `BLOCKED` stage status', holds: label('metric-blocked') },
  {
    id: 'D35',
    table: 'Decisions',
    row: "a stage's status over its tasks",
    holds: label('metric-pass-task-unfinished'),
  },
  {
    id: 'D38',
    table: 'Decisions',
    row: 'a pending approval that holds no stage',
    holds: label('approval-unattributed'),
  },
  { id: 'D7', table: 'Decisions', row: 'malformed feedback', holds: label('feedback-malformed') },
  {
    id: 'D8',
    table: 'Feedback issues',
    row: 'agent names are matched as names, not substrings',
    holds: label('agent-substring'),
  },
  {
    id: 'D9',
    table: 'Feedback issues',
    row: '… including names rstack-agents misses',
    holds: label('agent-rstack-misses'),
  },
  { id: 'D10', table: 'Feedback issues', row: 'an owner that maps to no stage', holds: label('agent-unknown') },
  { id: 'D11', table: 'Feedback issues', row: "only the pipeline's stages", holds: label('agent-outside-pipeline') },
  { id: 'D12', table: 'Feedback issues', row: 'issue-level `can_auto_remediate`', holds: label('issue-level-auto') },
  { id: 'D13', table: 'Metrics and budget', row: 'non-decimal numeric strings', holds: label('metric-hex') },
  { id: 'D14', table: 'Metrics and budget', row: 'empty and non-numbers', holds: label('metric-empty') },
  { id: 'D15', table: 'Metrics and budget', row: 'an array of one number', holds: label('metric-array') },
  {
    id: 'D16',
    table: 'Metrics and budget',
    row: '`source: "pipeline_state"`',
    holds: label('source-pipeline-state'),
  },
  { id: 'D17', table: 'Metrics and budget', row: 'the budget', holds: label('budget-not-a-number') },
  { id: 'D18', table: 'Metrics and budget', row: 'where the budget lives' },
  {
    id: 'D19',
    table: 'Verdicts',
    row: 'several fresh verdicts for one criterion',
    holds: label('verdicts-several-fresh'),
  },
  {
    id: 'D20',
    table: 'Verdicts',
    row: 'a malformed verdict does not shadow a good one',
    holds: label('verdict-malformed-first'),
  },
  { id: 'D21', table: 'Verdicts', row: 'explicit stamps far ahead', holds: label('verdict-far-ahead') },
  { id: 'D22', table: 'Verdicts', row: 'evidence that exists in two places', holds: label('evidence-two-places') },
  { id: 'D23', table: 'Verdicts', row: 'evidence through a symlink', holds: label('evidence-symlink') },
  {
    id: 'D24',
    table: 'Verdicts',
    row: 'an invalid `recommendation`',
    holds: label('verdict-invalid-recommendation'),
  },
  {
    id: 'D36',
    table: 'Verdicts',
    row: 'a verdict naming a stage outside the pipeline',
    holds: label('verdict-stage-outside-pipeline'),
  },
  {
    id: 'D37',
    table: 'Verdicts',
    row: 'an unstamped agent claim outside a loop',
    holds: label('agent-unstamped-one-shot'),
  },
  { id: 'D25', table: 'The goal file', row: '`"operator": "=>"`', holds: label('operator-typo') },
  { id: 'D26', table: 'The goal file', row: '`"rerun_stages": ["07-cod"]`', holds: label('rerun-stage-unknown') },
  { id: 'D27', table: 'The goal file', row: 'a custom pipeline\'s stage, `"rerun_stages": ["lint"]`' },
  { id: 'D28', table: 'The goal file', row: '`"min_score": 150`', holds: label('min-score-over-100') },
  { id: 'D29', table: 'The goal file', row: '`"timeout_ms": 900000`', holds: label('timeout-over-max') },
  { id: 'D30', table: 'The goal file', row: 'a criterion without `id`', holds: label('criterion-without-id') },
  { id: 'D31', table: 'The goal file', row: '`"kind": "file_exist"`', holds: label('kind-typo') },
  {
    id: 'D32',
    table: 'The goal file',
    row: '`{ "kind": "file_exists", "path": "/etc/hosts" }`',
    holds: label('file-outside-project'),
  },
  { id: 'D33', table: 'The goal file', row: '`{ "kind": "json_schema", … }`', holds: label('json-schema') },
];

// The order rules are tried in: the decision's shape first (a run that differs only there), then what makes goal-loop
// refuse the goal (it decides before anything else), then the rows about one input, then the broad decision rows.
const BROAD = new Set(['D1', 'D2', 'D3']);
const GOAL_ERRORS = new Set(['D16', 'D25', 'D26', 'D28', 'D29', 'D30', 'D31']);
const ORDERED: readonly Rule[] = [
  ...RULES.filter((rule) => rule.reshapes !== undefined).reverse(),
  ...RULES.filter((rule) => GOAL_ERRORS.has(rule.id)),
  ...RULES.filter((rule) => rule.holds !== undefined && !GOAL_ERRORS.has(rule.id) && !BROAD.has(rule.id)),
  ...RULES.filter((rule) => BROAD.has(rule.id)),
];

/** True when two decisions are the same: status and rerun stages, in order. */
export function sameDecision(a: Decision, b: Decision): boolean {
  return (
    a.status === b.status && a.rerun.length === b.rerun.length && a.rerun.every((stage, at) => b.rerun[at] === stage)
  );
}

/** The rule that explains a disagreement, or null when none does. */
export function explain(spec: RunSpec, rstack: Decision, goalLoop: Decision): Rule | null {
  for (const rule of ORDERED) {
    if (rule.reshapes !== undefined && sameDecision(rule.reshapes(rstack, spec), goalLoop)) return rule;
    if (rule.holds?.(spec) === true) return rule;
  }
  return null;
}
