import type { Criterion, CriterionKind } from '../contracts/goal.js';
import { evaluateCommandOutcome } from './command-outcome.js';
import type { CriterionFact, PathFact } from './facts.js';
import { jsonSchemaVerdict } from './json-schema-verdict.js';
import { metricVerdict } from './metric-verdict.js';
import type { JudgeOutcome } from './verdicts.js';

/** PASS, FAIL or PENDING (not decidable yet: no verdict, no source, skipped). @public */
export type CriterionStatus = 'PASS' | 'FAIL' | 'PENDING';

/** One evaluated criterion of the goal. @public */
export interface CriterionEvaluation {
  readonly id: string;
  readonly kind: CriterionKind;
  readonly status: CriterionStatus;
  /** One human sentence saying why. */
  readonly detail: string;
  /** A short phrase for reason sentences: `exit code 1`, `summary.critical_count = 2, required == 0`. */
  readonly summary?: string;
  /** The observed value where there is one: the metric value, the exit code, … */
  readonly observed?: unknown;
  /** The stages a RETRY on this criterion reruns (after verdict replacements and additions). */
  readonly rerunStages: readonly string[];
  /** For judge criteria: where the verdict came from. */
  readonly verdictSource?: 'explicit' | 'agent';
  /** For judge criteria with a verdict: the judge's recommendation (`block` on a FAIL means BLOCK). */
  readonly recommendation?: 'retry' | 'block';
  /** For command criteria that ran: how long the command took. */
  readonly durationMs?: number;
  /** For command criteria that ran: the end of its output (standard error, else standard output). */
  readonly outputTail?: string;
  /** The JSON path of the goal field whose path the containment rule refused. */
  readonly refusedPath?: string;
}

/** What {@link evaluateCriterion} needs besides the criterion and its fact. @public */
export interface CriterionContext {
  /** The pipeline's stage ids, in order. */
  readonly stages: readonly string[];
  /** The feedback stage id (rerun when a `feedback` metric source is missing). */
  readonly feedbackStage: string;
  /** For a judge criterion: what the verdict protocol decided. */
  readonly judge?: JudgeOutcome;
}

type Verdict = Pick<CriterionEvaluation, 'status' | 'detail' | 'summary'> &
  Partial<CriterionEvaluation> & {
    /** The field (relative to the criterion) whose path the containment rule refused. */
    readonly refusedField?: string;
  };

/** Turns one criterion and the fact the shell gathered for it into a PASS, FAIL or PENDING. @public */
export function evaluateCriterion(
  criterion: Criterion,
  fact: CriterionFact | undefined,
  context: CriterionContext,
  index?: number,
): CriterionEvaluation {
  const verdict = judgeOf(criterion, fact, context);
  // A verdict names a refused field only when there is one (never as undefined): the common case copies no key twice.
  if (verdict.refusedField === undefined)
    return { id: criterion.id, kind: criterion.kind, rerunStages: criterion.rerun_stages, ...verdict };
  const { refusedField, ...rest } = verdict;
  // Without the criterion's position, the path is relative to the criterion itself.
  const at = index === undefined ? `$.${refusedField}` : `$.criteria[${index}].${refusedField}`;
  return {
    id: criterion.id,
    kind: criterion.kind,
    rerunStages: criterion.rerun_stages,
    ...rest,
    refusedPath: at,
    detail: `${at}: ${rest.detail} No stage rerun can change that: correct the path in the goal (or the symlink that leads out).`,
  };
}

// Dispatches on the criterion's kind; a fact of another kind (or none) leaves it PENDING.
function judgeOf(criterion: Criterion, fact: CriterionFact | undefined, context: CriterionContext): Verdict {
  switch (criterion.kind) {
    case 'file_exists':
      return fact?.kind === 'file_exists' ? fileExists(criterion.path, fact.path) : notEvaluated(criterion.id, fact);
    case 'command':
      return fact?.kind === 'command'
        ? evaluateCommandOutcome(criterion, fact.outcome)
        : notEvaluated(criterion.id, fact);
    case 'metric_threshold':
      return fact?.kind === 'metric_threshold'
        ? metricVerdict(criterion, fact.source, context)
        : notEvaluated(criterion.id, fact);
    case 'json_schema':
      return fact?.kind === 'json_schema'
        ? jsonSchemaVerdict(criterion.path, fact.outcome, criterion.schema_path)
        : notEvaluated(criterion.id, fact);
    case 'judge':
      return judgeCriterion(criterion.rerun_stages, context.judge);
    default: {
      const unreachable: never = criterion;
      throw new Error(`unknown criterion kind ${String((unreachable as { kind: unknown }).kind)}`);
    }
  }
}

// PENDING for a criterion the shell gathered no (or the wrong) fact for.
function notEvaluated(id: string, fact: CriterionFact | undefined): Verdict {
  const why =
    fact === undefined ? 'no facts were gathered for it' : `the gathered fact is for a ${fact.kind} criterion`;
  return { status: 'PENDING', summary: 'not evaluated', detail: `Criterion ${id} was not evaluated: ${why}.` };
}

// file_exists: PASS for an existing file or directory after containment.
function fileExists(path: string, fact: PathFact): Verdict {
  switch (fact.state) {
    case 'refused':
      return {
        status: 'FAIL',
        summary: `${path} refused`,
        detail: `${path} was refused: ${fact.detail}.`,
        ...(fact.reason === undefined ? {} : { refusedField: 'path' }),
      };
    case 'missing':
      return { status: 'FAIL', summary: `${path} is missing`, detail: `${path} does not exist.` };
    case 'present':
      return fact.type === 'other'
        ? {
            status: 'FAIL',
            summary: `${path} is not a file`,
            detail: `${path} exists but is neither a file nor a directory.`,
          }
        : { status: 'PASS', summary: `${path} exists`, detail: `${path} exists (${fact.type}).` };
    default: {
      const unreachable: never = fact;
      throw new Error(`unknown path fact ${String(unreachable)}`);
    }
  }
}

// judge: the verdict protocol's outcome, or PENDING when it reached none.
function judgeCriterion(rerunStages: readonly string[], outcome: JudgeOutcome | undefined): Verdict {
  if (outcome === undefined || outcome.state === 'pending') {
    const detail = outcome?.detail ?? 'No verdict protocol outcome was given for this judge criterion.';
    return { status: 'PENDING', summary: outcome?.summary ?? 'no verdict', detail, rerunStages };
  }
  return {
    status: outcome.verdict,
    summary: outcome.summary,
    detail: outcome.detail,
    rerunStages: outcome.rerunStages,
    verdictSource: outcome.source,
    recommendation: outcome.recommendation,
  };
}
