import type { Issue } from '../../errors.js';
import type { EvidenceFact, PathFact, PathRefusalReason } from '../../kit/path-facts.js';
import type { StageStatus } from '../../pipeline/stage-status.js';
import type { CommandResult } from '../../ports/command-runner.js';
import type { FeedbackRead } from '../contracts/feedback-view.js';
import type { Goal } from '../contracts/goal.js';
import type { Verdict } from '../contracts/verdict.js';
import type { OutputHistory } from './claims.js';

export type { StageStatus };

/**
 * A JSON document the shell tried to read for a criterion (a metric file, a json_schema target): refused, missing,
 * malformed (with why), or its parsed content. @public
 */
export type DocumentFact =
  | { readonly state: 'refused'; readonly detail: string; readonly reason?: PathRefusalReason }
  | { readonly state: 'missing' | 'malformed'; readonly detail: string }
  | { readonly state: 'present'; readonly document: unknown };

/** What the shell gathered for one criterion, by kind. @public */
export type CriterionFact =
  | { readonly kind: 'file_exists'; readonly path: PathFact }
  | {
      readonly kind: 'command';
      readonly outcome:
        | { readonly state: 'ran'; readonly result: CommandResult }
        | {
            readonly state: 'skipped';
            /** Why it did not run, as the criterion's detail shows it. */
            readonly detail: string;
            /** Why in a few words, for the evaluation's reason (default `command skipped`). */
            readonly summary?: string;
          };
    }
  | { readonly kind: 'metric_threshold'; readonly source: DocumentFact }
  | { readonly kind: 'judge' }
  | {
      readonly kind: 'json_schema';
      /** `unavailable`: a file could not be read; `checked`: validated; `schema_error`: the schema does not compile. */
      readonly outcome:
        | {
            readonly state: 'unavailable';
            readonly detail: string;
            /** The field whose path the containment rule refused (absent: missing, malformed or unreadable). */
            readonly refused?: 'path' | 'schema_path';
            /** The field naming the file that could not be read: the schema (`schema_path`), else the document. */
            readonly file?: 'path' | 'schema_path';
          }
        | { readonly state: 'schema_error'; readonly detail: string }
        | { readonly state: 'checked'; readonly valid: boolean; readonly errors: readonly string[] };
    };

/** The explicit verdict pool: `goal-verdict.json`, missing, malformed as a whole, or its valid verdicts plus an issue per ignored entry. @public */
export type ExplicitVerdictsFact =
  | { readonly state: 'missing' }
  | { readonly state: 'present'; readonly verdicts: readonly Verdict[]; readonly issues: readonly Issue[] };

/** Everything the pure goal evaluation needs, gathered by a shell first. @public */
export interface EvaluationFacts {
  readonly goal: Goal;
  /** The pipeline's stage ids, in order. */
  readonly stages: readonly string[];
  /** The id of the feedback stage (default `11-feedback-loop`); may be absent from `stages`. */
  readonly feedbackStage: string;
  /** The run-wide iteration being evaluated, or `null` outside a loop. */
  readonly iteration: number | null;
  /** Every stage of `stages` with its status in the run (missing entries count as `pending`). */
  readonly stageStatuses: Readonly<Record<string, StageStatus>>;
  /** What a stage's runner said of its outcome in this iteration, where it said something (the stage checks quote it). */
  readonly stageDetails?: Readonly<Record<string, string>>;
  /** One fact per criterion id of the goal. */
  readonly criteria: Readonly<Record<string, CriterionFact>>;
  /** The run's feedback.json as the loop reads it. */
  readonly feedback: FeedbackRead;
  /** The run's goal-verdict.json. */
  readonly explicitVerdicts: ExplicitVerdictsFact;
  /** For every evidence path named by an agent claim (as written), whether it resolves. */
  readonly evidence: Readonly<Record<string, EvidenceFact>>;
  /** The problems of the run's metrics.json, each at its JSON path in the file (absent or empty: none). */
  readonly metricsIssues?: readonly Issue[];
  /** When each stage last ran and since when the goal holds. */
  readonly history?: OutputHistory;
}

export type { EvidenceFact, PathFact } from '../../kit/path-facts.js';
export type { OutputHistory } from './claims.js';
