// The seeded generator of run directories: ordinary runs, plus at low rates the inputs each documented difference is
// about. Every such input is named by a label, so a rule can tell from the input alone which difference it holds.
import { SDLC_STAGES } from 'goal-loop';
import type { Random } from '../random.js';

/** The run directory, relative to the project root (rstack-agents' layout). */
export const RUN_DIR = '.rstack/runs/r-1';

/** One file, directory or symlink of a generated project, relative to its root. */
export type ProjectEntry =
  | { readonly path: string; readonly kind: 'file'; readonly text: string }
  | { readonly path: string; readonly kind: 'dir' }
  | { readonly path: string; readonly kind: 'symlink'; readonly target: string };

/** A generated run directory and what it holds. */
export interface RunSpec {
  readonly index: number;
  /** goal-loop's pipeline (rstack-agents always knows its 15 canonical stages). */
  readonly pipeline: readonly string[];
  /** The loop iteration in progress (events.jsonl), or null for a one-shot evaluation. */
  readonly iteration: number | null;
  readonly entries: readonly ProjectEntry[];
  /** The inputs a documented difference is about, and a few ordinary facts the rules read. */
  readonly labels: ReadonlySet<string>;
  /** One line saying what is in the run, for the report's examples. */
  readonly summary: string;
}

const GOOD_AGENTS: Readonly<Record<string, string>> = {
  '01-transcript': 'transcript_agent',
  '02-requirements': 'requirements_agent',
  '03-documentation': 'documentation_agent',
  '04-planning': 'planning_agent',
  '06-architecture': 'architecture_agent',
  '07-code': 'agent.07-code',
  '08-testing': 'testing_agent',
  '09-deployment': '09-deployment',
  '10-summary': 'summary_agent',
};
const STAGE_ARTIFACT: Readonly<Record<string, string>> = {
  '03-documentation': 'documentation.json',
  '06-architecture': 'system_design.json',
  '07-code': 'code_report.json',
  '08-testing': 'test_report.json',
};

/** Generates run directory number `index`. */
export function generateRun(random: Random, index: number): RunSpec {
  const labels = new Set<string>();
  const entries: ProjectEntry[] = [];
  const notes: string[] = [];
  const json = (path: string, value: unknown): void => {
    entries.push({ path, kind: 'file', text: `${JSON.stringify(value, null, 2)}\n` });
  };
  const run = (path: string): string => `${RUN_DIR}/${path}`;

  const shape = random.next();
  const pipeline: readonly string[] =
    shape < 0.06
      ? SDLC_STAGES.filter((stage) => stage !== '06-architecture')
      : shape < 0.12
        ? SDLC_STAGES.slice(0, 12)
        : [...SDLC_STAGES];
  if (!pipeline.includes('06-architecture')) labels.add('pipeline-without-06');
  if (pipeline.length !== SDLC_STAGES.length) notes.push(`pipeline of ${pipeline.length}`);
  const inPipeline = (stage: string): boolean => pipeline.includes(stage);
  const someStage = (): string => random.pick(pipeline.filter((stage) => stage !== '11-feedback-loop'));

  const iteration = random.chance(0.5) ? random.int(1, 4) : null;
  notes.push(iteration === null ? 'one-shot' : `iteration ${iteration}`);

  // Stage state: tasks.json and metrics.json stage_status, written one way or the other per run.
  const style = random.pick(['metrics', 'tasks', 'mixed'] as const);
  const clean = random.chance(0.45);
  const tasks: Record<string, unknown>[] = [];
  const stageStatus: Record<string, string> = {};
  for (const stage of SDLC_STAGES) {
    const viaMetrics = style === 'metrics' || (style === 'mixed' && random.chance(0.5));
    const plan = !inPipeline(stage) || clean || random.chance(0.96) ? 'pass' : random.pick(STAGE_PLANS);
    const task = (status: string): void => {
      const owner = random.chance(0.8) ? { stage_id: stage } : { pipeline_agents: [`agent.${stage}`] };
      tasks.push({ id: `T-${stage.slice(0, 2)}-${tasks.length + 1}`, ...owner, status });
    };
    if (plan !== 'pass') notes.push(`${stage} ${plan}`);
    switch (plan) {
      case 'pass':
        if (viaMetrics) stageStatus[stage] = random.pick(['PASS', 'PASSED', 'DONE', 'COMPLETED', 'SUCCESS', 'pass']);
        else task(random.pick(['DONE', 'PASSED', 'COMPLETED', 'PASS']));
        break;
      case 'failed':
        if (viaMetrics) stageStatus[stage] = random.pick(['FAILED', 'ERROR', 'FAIL']);
        else task(random.pick(['FAILED', 'ERROR']));
        break;
      case 'pending': {
        labels.add('pending-stage');
        const how = random.pick(['metric', 'task', 'absent'] as const);
        if (how === 'metric') stageStatus[stage] = random.pick(['PENDING', 'RUNNING', 'IN_PROGRESS']);
        if (how === 'task') task(random.pick(['PENDING', 'IN_PROGRESS', 'RUNNING']));
        break;
      }
      case 'needs_context':
        task('NEEDS_CONTEXT');
        break;
      case 'blocked_task':
        task('BLOCKED');
        break;
      case 'metric_blocked':
        labels.add('metric-blocked');
        stageStatus[stage] = 'BLOCKED';
        break;
      case 'metric_pass_task_unfinished':
        labels.add('metric-pass-task-unfinished');
        stageStatus[stage] = 'PASS';
        task(random.pick(['PENDING', 'IN_PROGRESS']));
        break;
    }
    if (plan === 'pass' && STAGE_ARTIFACT[stage] !== undefined && random.chance(0.5))
      json(run(`artifacts/stages/${stage}/${STAGE_ARTIFACT[stage]}`), { stage, api_endpoints: [] });
  }
  if (tasks.length > 0) json(run('tasks.json'), random.chance(0.5) ? tasks : { tasks });

  if (random.chance(0.15)) {
    const status = random.pick(['PENDING', 'REQUIRED', 'APPROVED', 'approved']);
    if (status === 'PENDING' || status === 'REQUIRED') notes.push('approval pending');
    json(run('approvals.json'), [{ artifact: 'system_design.json', stage_id: someStage(), status }]);
  } else if (random.chance(0.03)) {
    // rstack-agents' own shape (spec/schemas/approval.schema.json): the artifact or gate, no stage field.
    labels.add('approval-without-stage');
    notes.push('approval without stage');
    const artifact = random.pick(['stage-approval:06-architecture', 'system_design.json', 'guardrail-override:T-07-1']);
    // Only the stage gate on a stage of the pipeline holds a stage: no task T-07-1 is generated.
    if (artifact !== 'stage-approval:06-architecture' || !inPipeline('06-architecture'))
      labels.add('approval-unattributed');
    json(run('approvals.json'), [
      { id: 'app-1', artifact, status: 'PENDING', approver: 'lead', timestamp: '2026-01-01T00:00:00.000Z' },
    ]);
  }
  if (random.chance(0.12)) {
    const status = random.pick(['pending', 'resolved', undefined]);
    const stage = inPipeline('06-architecture') && random.chance(0.3) ? undefined : someStage();
    if (status !== 'resolved') notes.push('decision pending');
    json(run('decisions.json'), {
      decisions: [
        {
          decision_id: 'D-1',
          ...(status === undefined ? {} : { status }),
          ...(stage === undefined ? {} : { required_before_stage: stage }),
        },
      ],
    });
  }

  const metrics: Record<string, unknown> = { cumulative_cost_usd: random.int(0, 400) / 100 };
  if (random.chance(0.03)) {
    labels.add('budget-not-a-number');
    metrics.cumulative_cost_usd = 'abc';
  }
  if (Object.keys(stageStatus).length > 0) metrics.stage_status = stageStatus;
  json(run('metrics.json'), metrics);

  const goal = random.chance(0.85) ? generateGoal(random, pipeline, labels, notes) : null;
  if (goal === null) notes.push('default goal');
  const judges = (goal?.criteria ?? []).filter((criterion) => criterion.kind === 'judge');
  if (goal !== null) json(run('goal.json'), goal.raw);
  if (iteration !== null)
    entries.push({
      path: run('events.jsonl'),
      kind: 'file',
      text: `${JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', type: 'loop_iteration_started', iteration, max_iterations: 5, goal_id: goal?.raw.goal_id ?? 'pipeline-complete' })}\n`,
    });

  // Files the criteria point at.
  entries.push({ path: 'docs/HARNESS.md', kind: 'file', text: '# Harness\n' });
  for (const criterion of goal?.criteria ?? []) for (const entry of criterion.entries) entries.push(entry);

  generateFeedback(random, { pipeline, iteration, judges, labels, notes, entries, json, run, goal });
  generateVerdicts(random, { iteration, judges, labels, notes, json, run });

  return { index, pipeline, iteration, entries, labels, summary: notes.join('; ') };
}

const STAGE_PLANS = [
  'failed',
  'failed',
  'pending',
  'pending',
  'needs_context',
  'blocked_task',
  'metric_blocked',
  'metric_pass_task_unfinished',
] as const;

interface GeneratedCriterion {
  readonly id: string;
  readonly kind: string;
  /** The judge's verdict plan (judges only). */
  readonly plan?: string;
  /** Files the criterion needs in the project. */
  readonly entries: readonly ProjectEntry[];
}

interface GeneratedGoal {
  readonly raw: Record<string, unknown> & { goal_id: string };
  readonly criteria: readonly GeneratedCriterion[];
}

function generateGoal(
  random: Random,
  pipeline: readonly string[],
  labels: Set<string>,
  notes: string[],
): GeneratedGoal {
  const raw: Record<string, unknown> & { goal_id: string } = { schema_version: 1, goal_id: `goal-${random.int(1, 9)}` };
  const minScore = random.next();
  if (minScore < 0.1) {
    raw.min_score = random.pick([50, 80, 90]);
    labels.add('min-score-below-100');
  } else if (minScore < 0.12) {
    raw.min_score = 150;
    labels.add('min-score-over-100');
  } else if (minScore < 0.2) raw.min_score = 100;
  const criteria: GeneratedCriterion[] = [];
  const list: Record<string, unknown>[] = [];
  const count = random.int(1, 4);
  for (let at = 0; at < count; at += 1) {
    const id = `c${at + 1}`;
    const entries: ProjectEntry[] = [];
    const item: Record<string, unknown> = { id };
    const kind = random.pick([
      'file_exists',
      'file_exists',
      'command',
      'command',
      'metric_threshold',
      'metric_threshold',
      'judge',
      'judge',
      'json_schema',
    ]);
    item.kind = kind;
    let plan: string | undefined;
    if (kind === 'file_exists') {
      const where = random.next();
      if (where < 0.03) {
        labels.add('file-outside-project');
        item.path = '/etc/hosts';
      } else if (where < 0.35) {
        item.run_relative = true;
        item.path = 'artifacts/stages/03-documentation/documentation.json';
      } else item.path = random.pick(['docs/HARNESS.md', 'docs/MISSING.md']);
    } else if (kind === 'command') {
      item.command = `exit ${random.pick([0, 0, 1, 2])}`;
      if (random.chance(0.2)) item.expect_exit_code = random.pick([0, 1]);
      const timeout = random.next();
      if (timeout < 0.03) {
        labels.add('timeout-over-max');
        item.timeout_ms = 900000;
      } else if (timeout < 0.12) item.timeout_ms = 300000;
    } else if (kind === 'metric_threshold') {
      const [operator, value] = random.pick([
        ['>=', 90],
        ['==', 0],
        ['<=', 5],
        ['>', 50],
        ['!=', 1],
      ] as const);
      item.operator = operator;
      item.value = value;
      if (random.chance(0.03)) {
        labels.add('operator-typo');
        item.operator = '=>';
      }
      const source = random.next();
      if (source < 0.03) {
        labels.add('source-pipeline-state');
        item.source = 'pipeline_state';
        item.metric = 'pipeline.stages_failed';
      } else if (source < 0.45) {
        item.source = 'feedback';
        item.metric = 'summary.overall_consistency_score';
      } else {
        const file = `quality/${id}.json`;
        item.source = { file };
        item.metric = 'quality.value';
        const odd = random.next();
        let observed: unknown = random.pick([0, 1, 3, 60, 85, 95, 100]);
        if (odd < 0.04) {
          labels.add('metric-hex');
          observed = random.pick(['0x10', '0b101', '0o17']);
        } else if (odd < 0.08) {
          labels.add('metric-empty');
          observed = random.pick([null, '', [], false, true, '  ']);
        } else if (odd < 0.11) {
          labels.add('metric-array');
          observed = [random.pick([0, 95, 3])];
        } else if (odd < 0.16) observed = String(observed);
        if (random.chance(0.06)) entries.push({ path: `${RUN_DIR}/${file}`, kind: 'file', text: '{ "quality": ' });
        else if (!random.chance(0.05))
          entries.push({
            path: `${RUN_DIR}/${file}`,
            kind: 'file',
            text: `${JSON.stringify({ quality: { value: observed } })}\n`,
          });
      }
    } else if (kind === 'judge') {
      item.question = 'Is the design satisfying?';
      plan = random.pick(JUDGE_PLANS);
    } else {
      labels.add('json-schema');
      item.run_relative = true;
      item.path = 'artifacts/stages/06-architecture/system_design.json';
      item.schema = { type: 'object', required: ['api_endpoints'] };
    }
    if (random.chance(0.55)) {
      const stages = [...new Set([random.pick(pipeline), random.pick(pipeline)])].slice(0, random.int(1, 2));
      item.rerun_stages = stages;
    }
    if (random.chance(0.03)) {
      labels.add('rerun-stage-unknown');
      item.rerun_stages = [...((item.rerun_stages as string[] | undefined) ?? []), '07-cod'];
    }
    if (random.chance(0.02)) {
      labels.add('criterion-without-id');
      delete item.id;
    }
    if (random.chance(0.02)) {
      labels.add('kind-typo');
      item.kind = 'file_exist';
    }
    list.push(item);
    criteria.push({ id, kind: String(item.kind), ...(plan === undefined ? {} : { plan }), entries });
  }
  raw.criteria = list;
  notes.push(
    `goal: ${criteria.map((criterion) => `${criterion.kind}${criterion.plan === undefined ? '' : `(${criterion.plan})`}`).join(', ')}`,
  );
  return { raw, criteria };
}

// How a judge criterion gets (or does not get) its verdict.
const JUDGE_PLANS = [
  'none',
  'pass',
  'pass',
  'fail',
  'fail-block',
  'stale',
  'agent',
  'agent',
  'two-fresh',
  'malformed-first',
  'far-ahead',
  'invalid-recommendation',
] as const;

interface FeedbackContext {
  readonly pipeline: readonly string[];
  readonly iteration: number | null;
  readonly judges: readonly GeneratedCriterion[];
  readonly labels: Set<string>;
  readonly notes: string[];
  readonly entries: ProjectEntry[];
  readonly json: (path: string, value: unknown) => void;
  readonly run: (path: string) => string;
  readonly goal: GeneratedGoal | null;
}

function generateFeedback(random: Random, context: FeedbackContext): void {
  const { pipeline, labels, notes, entries, json, run } = context;
  const agentJudges = context.judges.filter((judge) => judge.plan === 'agent');
  if (!random.chance(0.55) && agentJudges.length === 0) {
    notes.push('no feedback');
    return;
  }
  const path = random.chance(0.85)
    ? run('artifacts/stages/11-feedback-loop/feedback.json')
    : run('artifacts/feedback/consistency_report.json');
  if (random.chance(0.03)) {
    labels.add('feedback-malformed');
    notes.push('feedback malformed');
    entries.push({ path, kind: 'file', text: random.pick(['{ "issues": 3 }\n', 'not json {\n']) });
    return;
  }
  const issues: Record<string, unknown>[] = [];
  for (let at = 0; at < random.int(0, 3); at += 1) {
    const severity = random.chance(0.4) ? 'CRITICAL' : random.pick(['WARNING', 'INFO', 'critical']);
    const issue: Record<string, unknown> = { id: `FB-${at + 1}`, severity, description: 'found by the review' };
    if (severity.toUpperCase() === 'CRITICAL') {
      const owner = random.next();
      const fixable = pipeline.filter((stage) => GOOD_AGENTS[stage] !== undefined);
      if (owner < 0.62) issue.remediation = { agent_to_rerun: GOOD_AGENTS[random.pick(fixable)] };
      else if (owner < 0.7) issue.remediation = null;
      else if (owner < 0.75) issue.remediation = { can_auto_remediate: true };
      else if (owner < 0.8) {
        labels.add('agent-substring');
        issue.remediation = { agent_to_rerun: random.pick(['integration_testing_agent', 'api_architecture_agent']) };
      } else if (owner < 0.86) {
        labels.add('agent-rstack-misses');
        issue.remediation = { agent_to_rerun: random.pick(['feedback_loop_agent', 'security_agent', 'cost_agent']) };
      } else if (owner < 0.92) {
        labels.add('agent-unknown');
        issue.remediation = { agent_to_rerun: random.pick(['marketing_agent', 'legal_agent']) };
      } else if (owner < 0.96 && labels.has('pipeline-without-06')) {
        labels.add('agent-outside-pipeline');
        issue.remediation = { agent_to_rerun: 'agent.06-architecture' };
      } else {
        labels.add('issue-level-auto');
        issue.can_auto_remediate = true;
      }
      notes.push(
        `critical ${JSON.stringify(issue.remediation ?? (issue.can_auto_remediate ? 'issue-level auto' : null))}`,
      );
    }
    issues.push(issue);
  }
  const listed = issues.filter((issue) => String(issue.severity).toUpperCase() === 'CRITICAL').length;
  const declared = random.chance(0.8) ? listed : random.chance(0.5) ? listed + 1 : 0;
  const report: Record<string, unknown> = {
    summary: { critical_count: declared, overall_consistency_score: random.pick([60, 80, 90, 95, 100]) },
    issues,
  };
  if (agentJudges.length > 0) report.goal_evaluation = agentSection(random, context, agentJudges);
  json(path, report);
}

// The review's goal_evaluation: one claim per judge the agent answers, with the evidence it names.
function agentSection(random: Random, context: FeedbackContext, judges: readonly GeneratedCriterion[]): unknown {
  const { iteration, labels, notes, entries, run } = context;
  const criteria = judges.map((judge) => {
    const result = random.pick(['met', 'met', 'not_met', 'unknown']);
    const proof = random.next();
    let evidence: string[];
    if (proof < 0.08) {
      labels.add('evidence-two-places');
      entries.push({ path: run('notes.md'), kind: 'dir' }, { path: 'notes.md', kind: 'file', text: '# notes\n' });
      evidence = ['notes.md'];
    } else if (proof < 0.16) {
      labels.add('evidence-symlink');
      entries.push({ path: run('evidence/report.json'), kind: 'symlink', target: '/etc/passwd' });
      evidence = ['evidence/report.json'];
    } else if (proof < 0.28) evidence = ['artifacts/stages/06-architecture/missing.json'];
    else if (proof < 0.32) evidence = [];
    else {
      entries.push({ path: run('artifacts/stages/11-feedback-loop/review-notes.json'), kind: 'file', text: '{}\n' });
      evidence = ['artifacts/stages/11-feedback-loop/review-notes.json'];
    }
    const stamp = iteration === null ? random.pick([undefined, 1]) : random.pick([iteration, iteration, undefined]);
    if (iteration === null && stamp === undefined) labels.add('agent-unstamped-one-shot');
    const unusable = result === 'unknown' || proof < 0.32 || (iteration !== null && stamp === undefined);
    if (unusable && !(proof < 0.16)) labels.add('judge-waiting');
    notes.push(`agent claim ${judge.id} ${result} stamp ${stamp ?? 'none'} evidence ${evidence.join(',') || 'none'}`);
    return {
      criterion_id: judge.id,
      result,
      evidence,
      reasoning: 'checked the design',
      ...(stamp === undefined ? {} : { iteration: stamp }),
    };
  });
  return {
    goal_id: context.goal?.raw.goal_id,
    status: 'RETRY',
    consistency_score: 80,
    critical_count: 0,
    failing_stages: [],
    recommended_rerun_stages: [],
    requires_human_decision: false,
    reason: 'the design review needs another pass',
    criteria,
  };
}

interface VerdictContext {
  readonly iteration: number | null;
  readonly judges: readonly GeneratedCriterion[];
  readonly labels: Set<string>;
  readonly notes: string[];
  readonly json: (path: string, value: unknown) => void;
  readonly run: (path: string) => string;
}

function generateVerdicts(random: Random, context: VerdictContext): void {
  const { iteration, judges, labels, json, run } = context;
  const verdicts: Record<string, unknown>[] = [];
  const fresh = iteration ?? undefined;
  const stamped = (value: number | undefined): Record<string, unknown> =>
    value === undefined ? {} : { iteration: value };
  for (const judge of judges) {
    // The id-less shorthand applies to a goal's only judge.
    const id = judges.length === 1 && random.chance(0.3) ? {} : { criterion_id: judge.id };
    const base = { ...id, judge: 'human:architect' };
    switch (judge.plan) {
      case 'pass':
        verdicts.push({ ...base, verdict: 'PASS', ...stamped(fresh) });
        break;
      case 'fail':
        if (labels.has('pipeline-without-06')) labels.add('verdict-stage-outside-pipeline');
        verdicts.push({ ...base, verdict: 'FAIL', ...stamped(fresh), recommended_rerun_stages: ['06-architecture'] });
        break;
      case 'fail-block':
        verdicts.push({ ...base, verdict: 'FAIL', recommendation: 'block', ...stamped(fresh) });
        break;
      case 'none':
        labels.add('judge-waiting');
        break;
      case 'stale':
        labels.add('judge-waiting');
        if (iteration !== null)
          verdicts.push({ ...base, verdict: 'PASS', ...stamped(random.chance(0.5) ? iteration - 1 : undefined) });
        break;
      case 'two-fresh':
        labels.add('verdicts-several-fresh');
        if (iteration === null) verdicts.push({ ...base, verdict: 'FAIL' }, { ...base, verdict: 'PASS' });
        else
          verdicts.push(
            { ...base, verdict: 'FAIL', iteration },
            { ...base, verdict: 'PASS', iteration: iteration + 1 },
          );
        break;
      case 'malformed-first':
        labels.add('verdict-malformed-first');
        verdicts.push({ ...base, verdict: 'pass', ...stamped(fresh) }, { ...base, verdict: 'PASS', ...stamped(fresh) });
        break;
      case 'far-ahead':
        labels.add('verdict-far-ahead');
        verdicts.push({ ...base, verdict: 'PASS', iteration: 999 });
        break;
      case 'invalid-recommendation':
        labels.add('verdict-invalid-recommendation');
        verdicts.push({ ...base, verdict: 'FAIL', recommendation: 'halt', ...stamped(fresh) });
        break;
      default:
        break;
    }
  }
  if (verdicts.length === 0) return;
  json(
    run('goal-verdict.json'),
    verdicts.length === 1 && random.chance(0.5) ? verdicts[0] : random.chance(0.5) ? verdicts : { verdicts },
  );
}
