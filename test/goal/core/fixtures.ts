import { readFeedbackView } from '../../../src/goal/contracts/feedback-view.js';
import { type Goal, goalSchema } from '../../../src/goal/contracts/goal.js';
import { parseVerdictFile } from '../../../src/goal/contracts/verdict.js';
import { type CriterionContext, evaluateCriterion } from '../../../src/goal/core/criteria.js';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import type {
  CriterionFact,
  EvaluationFacts,
  EvidenceFact,
  ExplicitVerdictsFact,
  StageStatus,
} from '../../../src/goal/core/facts.js';
import type { CommandResult } from '../../../src/ports/command-runner.js';

// Small builders that keep the core tests readable.

const STAGES = ['03-documentation', '06-architecture', '07-code', '08-testing', '11-feedback-loop'] as const;
export const FEEDBACK = '11-feedback-loop';

type Raw = Record<string, unknown>;

// A goal parsed through the real schema (so defaults apply) from raw criteria.
export function goal(criteria: readonly Raw[], extra: Raw = {}): Goal {
  return goalSchema.parse({ schema_version: 1, goal_id: 'test-goal', ...extra, criteria });
}

export const judge = (id: string, rerun: string[] = []): Raw => ({
  id,
  kind: 'judge',
  question: `Is ${id} satisfied?`,
  rerun_stages: rerun,
});
export const fileExists = (id: string, path = `${id}.json`, rerun: string[] = []): Raw => ({
  id,
  kind: 'file_exists',
  path,
  rerun_stages: rerun,
});
export const command = (id: string, rerun: string[] = [], extra: Raw = {}): Raw => ({
  id,
  kind: 'command',
  command: `npm run ${id}`,
  rerun_stages: rerun,
  ...extra,
});
export const metric = (id: string, extra: Raw = {}): Raw => ({
  id,
  kind: 'metric_threshold',
  source: 'feedback',
  metric: 'summary.critical_count',
  operator: '==',
  value: 0,
  ...extra,
});
export const jsonSchema = (id: string, rerun: string[] = []): Raw => ({
  id,
  kind: 'json_schema',
  path: `${id}.json`,
  schema: { type: 'object' },
  rerun_stages: rerun,
});

// Every stage of `stages` with the same status.
export function statuses(status: StageStatus, stages: readonly string[] = STAGES): Record<string, StageStatus> {
  return Object.fromEntries(stages.map((stage) => [stage, status]));
}

// Evaluation facts with everything passing and nothing gathered, then the overrides.
export function facts(overrides: Partial<EvaluationFacts> = {}): EvaluationFacts {
  return {
    goal: goal([]),
    stages: STAGES,
    feedbackStage: FEEDBACK,
    iteration: null,
    stageStatuses: statuses('passed'),
    criteria: {},
    feedback: { state: 'missing' },
    explicitVerdicts: { state: 'missing' },
    evidence: {},
    ...overrides,
  };
}

// A command result with defaults: exit 0, 10 ms, no output.
export function ran(partial: Partial<CommandResult> = {}): CriterionFact {
  const result: CommandResult = {
    exitCode: 0,
    timedOut: false,
    aborted: false,
    durationMs: 10,
    stdoutTail: '',
    stderrTail: '',
    ...partial,
  };
  return { kind: 'command', outcome: { state: 'ran', result } };
}

export const present = (type: 'file' | 'directory' | 'other' = 'file', path = 'x'): CriterionFact => ({
  kind: 'file_exists',
  path: { state: 'present', path, type },
});
export const missingFile: CriterionFact = { kind: 'file_exists', path: { state: 'missing', path: 'x' } };
export const metricDoc = (document: unknown): CriterionFact => ({
  kind: 'metric_threshold',
  source: { state: 'present', document },
});
export const schemaChecked = (valid: boolean, errors: string[] = []): CriterionFact => ({
  kind: 'json_schema',
  outcome: { state: 'checked', valid, errors },
});
export const JUDGE_FACT: CriterionFact = { kind: 'judge' };

// feedback.json content read through the real view.
export const feedback = (report: unknown): EvaluationFacts['feedback'] => readFeedbackView(report);

// goal-verdict.json content read through the real parser.
export function verdicts(content: unknown, stages: readonly string[] = STAGES): ExplicitVerdictsFact {
  const parsed = parseVerdictFile(content, { stages });
  return { state: 'present', verdicts: parsed.verdicts, issues: parsed.issues };
}

// A feedback report with a goal_evaluation section.
export function agentReport(criteria: readonly Raw[], section: Raw = {}, rest: Raw = {}): EvaluationFacts['feedback'] {
  return feedback({ summary: { critical_count: 0 }, issues: [], goal_evaluation: { criteria, ...section }, ...rest });
}

// An agent criterion entry.
export const claimOf = (criterionId: string, result: 'met' | 'not_met' | 'unknown', extra: Raw = {}): Raw => ({
  criterion_id: criterionId,
  result,
  evidence: ['artifacts/a.json'],
  ...extra,
});

// Evidence facts: every listed path verified.
export function evidence(ok: readonly string[], bad: readonly string[] = []): Record<string, EvidenceFact> {
  return Object.fromEntries([
    ...ok.map((path) => [path, { ok: true, detail: 'regular file' }]),
    ...bad.map((path) => [path, { ok: false, detail: 'missing' }]),
  ]);
}

/** The pipeline of the criterion tests, with its feedback stage. */
export const context: CriterionContext = { stages: STAGES, feedbackStage: FEEDBACK };

/** Evaluates one raw criterion against one fact. */
export function evaluate(
  raw: Record<string, unknown>,
  fact: CriterionFact | undefined,
  ctx: CriterionContext = context,
) {
  const criterion = goal([raw]).criteria[0];
  if (criterion === undefined) throw new Error('no criterion');
  return evaluateCriterion(criterion, fact, ctx);
}

/** The rerun stages of the `design` judge criterion. */
export const ARCH = ['06-architecture', '11-feedback-loop'];
const oneJudge = goal([judge('design', ARCH)]);
/** A goal of two judge criteria, `design` and `security`. */
export const twoJudges = goal([judge('design', ARCH), judge('security', ['07-code'])]);
const GOOD = evidence(['artifacts/a.json', 'artifacts/b.json'], ['artifacts/bad.json']);

/** Facts for a judge goal inside a loop at iteration 2 (unless overridden). */
export function judged(overrides: Partial<EvaluationFacts> = {}): EvaluationFacts {
  return facts({
    goal: oneJudge,
    iteration: 2,
    criteria: { design: JUDGE_FACT, security: JUDGE_FACT },
    evidence: GOOD,
    ...overrides,
  });
}

/** The evaluated criterion `id` (default `design`) of the goal the facts describe. */
export const criterion = (facts_: EvaluationFacts, id = 'design') =>
  evaluateGoal(facts_).criteria.find((item) => item.id === id);
