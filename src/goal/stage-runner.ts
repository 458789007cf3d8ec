import type { StageContextOf, StageRunnerOf } from '../ports/stage-runner.js';
import type { GoalEvaluation } from './core/evaluate.js';

/**
 * What the goal loop's stage runner receives with each call: the stage port's
 * context, with the loop's last {@link GoalEvaluation} as `previousEvaluation`.
 *
 * @public
 */
export type StageContext = StageContextOf<GoalEvaluation>;

/**
 * The goal loop's stage port: the host's code that actually runs a stage
 * (calls an agent, a model, a script). The library never calls a model itself.
 *
 * @example
 * ```ts
 * const runner: StageRunner = {
 *   async run(stageId, context) {
 *     const ok = await myAgent.run(stageId, { signal: context.signal, feedback: context.previousEvaluation?.reason });
 *     return { status: ok ? 'passed' : 'failed', costUsd: 0.12 };
 *   },
 * };
 * ```
 * @public
 */
export type StageRunner = StageRunnerOf<GoalEvaluation>;
