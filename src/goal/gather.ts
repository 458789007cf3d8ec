import { isInside } from '../kit/paths.js';
import { recordFromEntries } from '../kit/record.js';
import { limitFunction, mapConcurrent } from '../persist/concurrency.js';
import { type RealpathCache, resolveContainedPath, resolveEvidencePath } from '../persist/containment.js';
import type { JsonSchemaChecker } from '../persist/json-schema-check.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { CommandRunner, CommandRunOptions } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import type { FeedbackRead } from './contracts/feedback-view.js';
import type { Criterion, Goal } from './contracts/goal.js';
import type {
  CriterionFact,
  DocumentFact,
  EvaluationFacts,
  EvidenceFact,
  PathFact,
  StageStatus,
} from './core/facts.js';
import { readFeedback, readJsonDocument, readVerdicts } from './run-documents.js';
import { evidenceOrFail, gatherOrFail } from './unreadable-fact.js';

/** What {@link gatherFacts} needs. @internal */
export interface GatherInput {
  readonly fs: FileSystem;
  readonly paths: RunPaths;
  readonly goal: Goal;
  readonly stages: readonly string[];
  readonly feedbackStage: string;
  readonly iteration: number | null;
  /** The stage statuses, or a promise of them (read alongside the criteria). */
  readonly stageStatuses: Readonly<Record<string, StageStatus>> | Promise<Readonly<Record<string, StageStatus>>>;
  /** loop-state.json as metric source (`source: "loop_state"`). */
  readonly loopState: DocumentFact;
  readonly commands: CommandRunner | undefined;
  readonly skipCommands: boolean;
  readonly concurrency: number;
  readonly signal: AbortSignal | undefined;
  readonly checker: JsonSchemaChecker;
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
    criteria: recordFromEntries(criteria),
    feedback: feedback.read,
    explicitVerdicts,
    evidence,
  };
}

// What a criterion that reads nothing of its own takes its fact from.
type SharedSource = 'judge' | 'feedback' | 'loop_state';

// The fact of every judge criterion: the verdicts decide it.
const JUDGE_FACT: CriterionFact = Object.freeze({ kind: 'judge' });

// The shared source of a criterion's fact, or null for one that reads a file or runs a command.
function sharedSource(criterion: Criterion): SharedSource | null {
  if (criterion.kind === 'judge') return 'judge';
  if (criterion.kind !== 'metric_threshold') return null;
  return criterion.source === 'feedback' || criterion.source === 'loop_state' ? criterion.source : null;
}

// What a relative path of a criterion is relative to.
function baseOf(input: GatherInput, runRelative: boolean): string {
  return runRelative ? input.paths.runDir : '.';
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

// Gathers the fact of one criterion, by kind.
async function gatherCriterion(
  input: GatherInput,
  criterion: Criterion,
  feedback: Promise<{ document: DocumentFact }>,
  cache: RealpathCache,
): Promise<CriterionFact> {
  switch (criterion.kind) {
    case 'file_exists':
      return {
        kind: 'file_exists',
        path: await resolveContainedPath(input.fs, criterion.path, {
          base: baseOf(input, criterion.run_relative),
          cache,
        }),
      };
    case 'command': {
      if (input.skipCommands)
        return {
          kind: 'command',
          outcome: { state: 'skipped', detail: 'commands are skipped in this dry run (skipCommands)' },
        };
      if (input.commands === undefined)
        return {
          kind: 'command',
          outcome: {
            state: 'skipped',
            detail: 'no CommandRunner was injected (pass `commands`, e.g. createExecaCommandRunner())',
          },
        };
      const result = await input.commands.run(criterion.command, {
        cwd: input.fs.root,
        timeoutMs: criterion.timeout_ms,
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      return { kind: 'command', outcome: { state: 'ran', result } };
    }
    case 'metric_threshold': {
      const source = criterion.source;
      if (source === 'feedback') return { kind: 'metric_threshold', source: (await feedback).document };
      if (source === 'loop_state') return { kind: 'metric_threshold', source: input.loopState };
      return {
        kind: 'metric_threshold',
        source: await readJsonDocument(
          input.fs,
          insideRunDir(
            await resolveContainedPath(input.fs, source.file, { base: input.paths.runDir, cache }),
            source.file,
            input.paths.runDir,
          ),
        ),
      };
    }
    case 'judge':
      return JUDGE_FACT;
    case 'json_schema': {
      // The schema first: one that does not compile is an error of the goal whatever the document's state.
      let schema: unknown = criterion.schema;
      if (criterion.schema_path !== undefined) {
        const schemaDoc = await readJsonDocument(
          input.fs,
          await resolveContainedPath(input.fs, criterion.schema_path, {
            base: baseOf(input, criterion.run_relative),
            cache,
          }),
        );
        if (schemaDoc.state === 'malformed')
          return { kind: 'json_schema', outcome: { state: 'schema_error', detail: schemaDoc.detail } };
        if (schemaDoc.state !== 'present')
          return { kind: 'json_schema', outcome: { state: 'unavailable', detail: `schema_path: ${schemaDoc.detail}` } };
        schema = schemaDoc.document;
      }
      const schemaError = input.checker.compileError(schema);
      if (schemaError !== undefined)
        return { kind: 'json_schema', outcome: { state: 'schema_error', detail: schemaError } };
      const target = await readJsonDocument(
        input.fs,
        await resolveContainedPath(input.fs, criterion.path, { base: baseOf(input, criterion.run_relative), cache }),
      );
      if (target.state !== 'present')
        return { kind: 'json_schema', outcome: { state: 'unavailable', detail: target.detail } };
      return { kind: 'json_schema', outcome: input.checker.check(target.document, schema) };
    }
  }
}

// A metric `{ file }` names a file of the run: one that resolves outside the run dir is refused.
function insideRunDir(fact: PathFact, written: string, runDir: string): PathFact {
  if (fact.state === 'refused' || isInside(fact.path, runDir)) return fact;
  return {
    state: 'refused',
    detail: `metric file "${written}" resolves to "${fact.path}", outside the run directory "${runDir}"`,
  };
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
