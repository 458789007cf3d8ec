import { formatIssue, GoalLoopError, type Issue } from '../errors.js';
import { failureSentence } from '../kit/failure-sentence.js';
import { hashJson } from '../kit/hash.js';
import { nonJsonPlace } from '../kit/json-value.js';
import type { SpanScope } from '../ports/span-scope.js';
import { inputIssues } from '../ports/tool-issues.js';
import { boundedHostCall, describeThrown, type HostCallBounds } from '../runtime/host-call.js';
import { generatorResultSchema, type JsonValue } from './contracts/decision.js';
import type { ExecutionState } from './contracts/execution-state.js';
import { type CriticReply, reportedCost } from './core/check-decision.js';
import type { ExecutionEffect, ExecutionInput } from './core/machine.js';
import { type LateCostTarget, recordLateCost } from './late-costs.js';
import type { StageDefinition } from './options.js';

/** Clock, signal, per-call time limit, heartbeat and late-cost sink of a host call. @internal */
export interface CallContext extends HostCallBounds {
  /** Where a call that settles after the pipeline stopped waiting for it leaves its cost (see recordLateCost). */
  readonly lateCostTarget: LateCostTarget;
}

/** A throw, the time limit or a malformed result is data, recorded on the span. @internal */
export async function callGenerator(
  stage: StageDefinition,
  effect: Extract<ExecutionEffect, { kind: 'generate' }>,
  state: ExecutionState,
  context: CallContext,
  span: SpanScope,
): Promise<ExecutionInput> {
  const started = context.clock.now();
  const gaps = state.gaps;
  const input = {
    stageId: stage.id,
    spec: state.spec,
    accepted: state.outputs,
    feedback: { ...effect.cause, gaps },
    attempt: effect.attempt,
  };
  const call = { stage: stage.id, attempt: effect.attempt, call: 'generate' } as const;
  const raw = await boundedHostCall(
    context,
    (signal) => stage.generate({ ...input, signal }),
    (late) => recordLateCost(context.lateCostTarget, call, reportedCost(late)).catch(() => undefined),
  );
  const durationMs = Math.max(0, context.clock.now() - started);
  const ts = new Date(context.clock.now()).toISOString();
  if (!raw.ok) {
    const error = failureSentence(`the ${stage.id} generator`, raw);
    span.fail(error, raw.cause);
    return { type: 'generated', ts, durationMs, result: { ok: false, error, costUsd: 0 } };
  }
  const checked = checkGeneratorResult(stage.id, raw.value);
  if (!checked.ok) {
    // The call was made and spent what it says, even when what it returned cannot be used.
    const result = { ok: false, error: checked.error, costUsd: reportedCost(raw.value) } as const;
    return { type: 'generated', ts, durationMs, result };
  }
  const { output, outputHash, costUsd } = checked;
  return { type: 'generated', ts, durationMs, result: { ok: true, output, outputHash, costUsd } };
}

// Names the place inside the output JSON cannot hold, not just "Invalid input" at `$.output`.
function withPlace(issue: Issue, value: unknown): Issue {
  if (issue.path.length !== 1 || issue.path[0] !== 'output') return issue;
  const place = nonJsonPlace((value as { output?: unknown }).output);
  return place === null ? issue : { ...issue, path: ['output', ...place.path], message: `${place.what} is not JSON` };
}

/** A throwing getter or `toJSON`, or too-deep nesting, is a failed call, never a crash of `run()`. */
function checkGeneratorResult(
  stageId: string,
  value: unknown,
): { ok: true; output: JsonValue; outputHash: string; costUsd: number } | { ok: false; error: string } {
  try {
    const parsed = generatorResultSchema.safeParse(value);
    if (!parsed.success) {
      const issues = inputIssues(generatorResultSchema, parsed.error).map((issue) =>
        formatIssue(withPlace(issue, value)),
      );
      return { ok: false, error: `the ${stageId} generator returned a malformed result: ${issues.join('; ')}` };
    }
    const { output, costUsd = 0 } = parsed.data;
    const outputHash = hashJson(output);
    JSON.stringify(output); // the state file holds it: it must serialise
    return { ok: true, output, outputHash, costUsd };
  } catch (error) {
    const why =
      error instanceof RangeError
        ? `its output is nested too deep to check or store (${error.message})`
        : `reading it threw: ${describeThrown(error)}`;
    return { ok: false, error: `the ${stageId} generator returned a result that cannot be used: ${why}` };
  }
}

/** A throw or the time limit is data, recorded on the span. @internal */
export async function callCritic(
  stage: StageDefinition,
  effect: Extract<ExecutionEffect, { kind: 'judge' }>,
  state: ExecutionState,
  context: CallContext,
  span: SpanScope,
): Promise<ExecutionInput> {
  const second = effect.by === 'second_critic';
  const critic = second ? stage.secondCritic : stage.critic;
  if (critic === undefined) {
    const [key, who] = second ? ['secondCritic', 'second critic'] : ['critic', 'critic'];
    throw new GoalLoopError(
      'INVALID_OPTIONS',
      `Invalid StagedPipeline options: $.stages[${state.stage_index}].${key}: execution ${state.execution_id} was saved waiting for the ${stage.id} ${who} to judge its output, and this pipeline's ${stage.id} stage has no ${who}; give it its ${who} again to resume the execution`,
      {
        issues: [
          {
            code: 'critic_removed',
            path: ['stages', state.stage_index, key],
            message: `execution ${state.execution_id} waits for the ${stage.id} ${who}`,
          },
        ],
      },
    );
  }
  if (state.pending === null) throw new Error('unreachable: judging without an output');
  const started = context.clock.now();
  const input = {
    stageId: stage.id,
    output: state.pending.output,
    spec: state.spec,
    accepted: state.outputs,
    judgements: state.judgements,
    attempt: effect.attempt,
  };
  const call = { stage: stage.id, attempt: effect.attempt, call: 'judge' } as const;
  const outcome = await boundedHostCall(
    context,
    (signal) => critic({ ...input, signal }),
    (late) => recordLateCost(context.lateCostTarget, call, reportedCost(late)).catch(() => undefined),
  );
  if (!outcome.ok) span.fail(failureSentence(`the ${stage.id} critic`, outcome), outcome.cause);
  const reply: CriticReply = outcome.ok ? outcome : { ok: false, error: outcome.error, timedOut: outcome.timedOut };
  const durationMs = Math.max(0, context.clock.now() - started);
  return { type: 'judged', ts: new Date(context.clock.now()).toISOString(), durationMs, reply };
}
