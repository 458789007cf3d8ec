import { GoalLoopError, type Issue, optionKeyIssues, refuseOptions } from '../errors.js';
import { pushAll } from '../kit/record.js';
import type { StageContextOf, StageOutcome, StageRunnerOf, StageRunReason } from '../ports/stage-runner.js';

/** One scripted answer of a stage: a fixed outcome, or a function of the call's context (it may write artifacts through `context.fs`). @public */
export type ScriptedStep<TEvaluation = unknown> =
  | StageOutcome
  | ((context: StageContextOf<TEvaluation>, stageId: string) => StageOutcome | Promise<StageOutcome>);

/**
 * The script of a {@link createScriptedStageRunner}: stage id → the answers of its successive calls (a single step is a
 * one-element list). @public
 */
export type StageScript<TEvaluation = unknown> = Readonly<
  Record<string, ScriptedStep<TEvaluation> | readonly ScriptedStep<TEvaluation>[]>
>;

/** One call a scripted runner received. @public */
export interface ScriptedStageCall {
  readonly stageId: string;
  readonly iteration: number;
  readonly reason: StageRunReason;
}

/** A stage runner that answers from a script and records its calls. @public */
export interface ScriptedStageRunner<TEvaluation = unknown> extends StageRunnerOf<TEvaluation> {
  /** Every call received, in order (including calls refused because the signal had aborted). */
  readonly calls: readonly ScriptedStageCall[];
  /** The ids of the stages called, in order. */
  stageIds(): string[];
}

/** Options of {@link createScriptedStageRunner}. @public */
export interface ScriptedStageRunnerOptions<TEvaluation = unknown> {
  /** The answer for a stage the script does not name (default: reject with `INVALID_OPTIONS`). */
  readonly fallback?: ScriptedStep<TEvaluation>;
}

/**
 * Creates a stage runner driven by a script: each call of a stage consumes the next step of its list, and the last step
 * repeats once the list is used up.
 *
 * @example
 * ```ts
 * import { createScriptedStageRunner } from 'goal-loop/testing';
 * const runner = createScriptedStageRunner({
 *   '01-requirements': { status: 'passed' },
 *   '03-documentation': [{ status: 'failed', detail: 'lint' }, { status: 'passed', costUsd: 0.05 }],
 * });
 * // … run a GoalLoop with it, then:
 * expect(runner.stageIds()).toEqual(['01-requirements', '03-documentation', '03-documentation']);
 * ```
 *
 * @public
 */
export function createScriptedStageRunner<TEvaluation = unknown>(
  script: StageScript<TEvaluation>,
  options: ScriptedStageRunnerOptions<TEvaluation> = {},
): ScriptedStageRunner<TEvaluation> {
  checkScript(script, options);
  const calls: ScriptedStageCall[] = [];
  const used = new Map<string, number>();

  // Picks the step for the next call of a stage and advances its cursor.
  const nextStep = (stageId: string): ScriptedStep<TEvaluation> => {
    const entry = Object.hasOwn(script, stageId) ? script[stageId] : undefined;
    const steps: readonly ScriptedStep<TEvaluation>[] =
      entry === undefined ? [] : Array.isArray(entry) ? entry : [entry as ScriptedStep<TEvaluation>];
    const index = used.get(stageId) ?? 0;
    used.set(stageId, index + 1);
    const step = steps[Math.min(index, steps.length - 1)] ?? options.fallback;
    if (step === undefined)
      throw new GoalLoopError('INVALID_OPTIONS', `the scripted stage runner has no step for stage "${stageId}"`);
    return step;
  };

  return {
    calls,
    stageIds: () => calls.map((call) => call.stageId),
    async run(stageId, context) {
      calls.push({ stageId, iteration: context.iteration, reason: context.reason });
      const { signal } = context;
      if (signal.aborted) throw signal.reason;
      const step = nextStep(stageId);
      if (typeof step !== 'function') return step;
      return raceAbort(
        Promise.resolve().then(() => step(context, stageId)),
        signal,
      );
    },
  };
}

// A step is an outcome object or a function of the call's context.
function stepIssues(step: unknown, path: (string | number)[]): Issue[] {
  if (typeof step === 'function' || (typeof step === 'object' && step !== null)) return [];
  return [{ code: 'invalid_type', path, message: 'a step must be an outcome object or a function' }];
}

// Refuses a script or options with a mistake when the runner is made, not when the stage is called: a step that is
// neither an outcome nor a function, or an unknown option key (with the option it most likely misspells).
function checkScript(script: unknown, options: unknown): void {
  const issues: Issue[] = [];
  if (typeof script !== 'object' || script === null || Array.isArray(script)) {
    issues.push({ code: 'invalid_type', path: ['script'], message: 'the script must map stage ids to steps' });
  } else {
    for (const [stage, entry] of Object.entries(script)) {
      if (!Array.isArray(entry)) pushAll(issues, stepIssues(entry, ['script', stage]));
      else
        pushAll(
          issues,
          entry.flatMap((step, index) => stepIssues(step, ['script', stage, index])),
        );
    }
  }
  const optionIssues = optionKeyIssues(options, ['fallback'], ['options']);
  const { fallback } = (options ?? {}) as ScriptedStageRunnerOptions;
  if (optionIssues.length === 0 && fallback !== undefined)
    pushAll(optionIssues, stepIssues(fallback, ['options', 'fallback']));
  refuseOptions('createScriptedStageRunner', [...issues, ...optionIssues]);
}

/** Settles with the work, or rejects with the signal's reason if it aborts first. @internal */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) reject(signal.reason);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
