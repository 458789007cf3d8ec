import { recordFromEntries } from '../kit/record.js';
import type { CommandRunner, CommandRunOptions } from '../ports/command-runner.js';
import { limitFunction, mapConcurrent } from '../runtime/concurrency.js';
import { type RealpathCache, resolveEvidencePath } from '../runtime/containment.js';
import type { FeedbackRead } from './contracts/feedback-view.js';
import type { Criterion, Goal } from './contracts/goal.js';
import type { CriterionFact, EvaluationFacts, EvidenceFact, StageStatus } from './core/facts.js';
import { type CriterionSources, gatherCriterion, JUDGE_FACT } from './criterion-fact.js';
import { readFeedback, readVerdicts } from './run-documents.js';
import { evidenceOrFail, gatherOrFail } from './unreadable-fact.js';

/** What {@link gatherFacts} needs. @internal */
export interface GatherInput extends CriterionSources {
  readonly goal: Goal;
  readonly stages: readonly string[];
  readonly feedbackStage: string;
  readonly iteration: number | null;
  /** The stage statuses, or a promise of them (read alongside the criteria). */
  readonly stageStatuses: Readonly<Record<string, StageStatus>> | Promise<Readonly<Record<string, StageStatus>>>;
  /** What each stage's runner said of its outcome in this iteration, where it said something. */
  readonly stageDetails?: Readonly<Record<string, string>>;
  readonly concurrency: number;
}

/**
 * Gathers every fact the pure evaluation needs: criteria facts
 * (commands concurrently, up to `concurrency`), the feedback report, the
 * explicit verdicts and the evidence behind agent claims, every path through
 * the containment rule.
 *
 * @internal
 */
export async function gatherFacts(input: GatherInput): Promise<EvaluationFacts> {
  const feedbackPromise = readFeedback(input.fs, input.paths.feedback);
  const shell =
    input.commands === undefined ? input : { ...input, commands: limitCommands(input.commands, input.concurrency) };
  const cache: RealpathCache = new Map();
  // Judges and metrics of feedback.json or loop-state.json read nothing of their own: they share one fact per source.
  const own = input.goal.criteria.filter((criterion) => sharedSource(criterion) === null);
  const [stageStatuses, feedback, explicitVerdicts, ownFacts, evidence] = await Promise.all([
    input.stageStatuses,
    feedbackPromise,
    readVerdicts(input.fs, input.paths.verdicts),
    mapConcurrent(own, FILE_CONCURRENCY, (criterion) =>
      gatherOrFail(criterion, () => gatherCriterion(shell, criterion, feedbackPromise, cache)),
    ),
    feedbackPromise.then((read) => gatherEvidence(input, read.read, cache)),
  ]);
  const shared: Readonly<Record<SharedSource, CriterionFact>> = {
    judge: JUDGE_FACT,
    feedback: { kind: 'metric_threshold', source: feedback.document },
    loop_state: { kind: 'metric_threshold', source: input.loopState },
  };
  let next = 0;
  const criteria = input.goal.criteria.map((criterion) => {
    const source = sharedSource(criterion);
    return [criterion.id, source === null ? (ownFacts[next++] as CriterionFact) : shared[source]] as const;
  });
  return {
    goal: input.goal,
    stages: input.stages,
    feedbackStage: input.feedbackStage,
    iteration: input.iteration,
    stageStatuses,
    ...(input.stageDetails === undefined ? {} : { stageDetails: input.stageDetails }),
    criteria: recordFromEntries(criteria),
    feedback: feedback.read,
    explicitVerdicts,
    evidence,
  };
}

// What a criterion that reads nothing of its own takes its fact from.
type SharedSource = 'judge' | 'feedback' | 'loop_state';

// The shared source of a criterion's fact, or null for one that reads a file or runs a command.
function sharedSource(criterion: Criterion): SharedSource | null {
  if (criterion.kind === 'judge') return 'judge';
  if (criterion.kind !== 'metric_threshold') return null;
  return criterion.source === 'feedback' || criterion.source === 'loop_state' ? criterion.source : null;
}

// Filesystem reads in flight at once; commands have their own, smaller bound.
const FILE_CONCURRENCY = 64;

// Wraps a command runner so at most `concurrency` commands run at once.
function limitCommands(commands: CommandRunner, concurrency: number): CommandRunner {
  const run = limitFunction((command: string, options: CommandRunOptions) => commands.run(command, options), {
    concurrency,
  });
  return { run };
}

// Resolves every evidence path named by the feedback report's goal_evaluation criteria.
async function gatherEvidence(
  input: GatherInput,
  feedback: FeedbackRead,
  cache: RealpathCache,
): Promise<Record<string, EvidenceFact>> {
  if (feedback.state !== 'present') return {};
  const paths = new Set<string>();
  for (const entry of feedback.report.goal_evaluation?.criteria ?? []) {
    const evidence = (entry as { evidence?: unknown } | null)?.evidence;
    if (Array.isArray(evidence)) for (const path of evidence) if (typeof path === 'string') paths.add(path);
  }
  const facts = await mapConcurrent(
    [...paths],
    FILE_CONCURRENCY,
    async (path) =>
      [path, await evidenceOrFail(path, () => resolveEvidencePath(input.fs, input.paths.runDir, path, cache))] as const,
  );
  return recordFromEntries(facts);
}
