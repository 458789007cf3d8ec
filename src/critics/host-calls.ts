import { formatIssue, issuesFromZod } from '../errors.js';
import { hashJson } from '../kit/hash.js';
import type { Clock } from '../ports/clock.js';
import type { SpanScope } from '../ports/span-scope.js';
import { generatorResultSchema, type JsonValue } from './contracts/decision.js';
import type { ExecutionState } from './contracts/execution-state.js';
import type { CriticReply } from './core/check-decision.js';
import type { ExecutionEffect, ExecutionInput } from './core/machine.js';
import type { StageDefinition } from './options.js';

/** What a host call needs besides the stage. @internal */
export interface CallContext {
  readonly clock: Clock;
  readonly signal: AbortSignal;
  /** Keeps the execution's lock fresh while the host works; `lost` fires if another runner takes the lock. */
  readonly heartbeat: <T>(work: (lost: AbortSignal) => Promise<T>) => Promise<T>;
}

// Rejects with the signal's reason when it fired: the call's result is not committed, so a resume repeats it.
function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

// The message of whatever a host function threw.
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Calls a stage's generator and reports what it gave (a throw or a malformed result is data); what it threw is
 * recorded on the call's span.
 *
 * @internal
 */
export async function callGenerator(
  stage: StageDefinition,
  effect: Extract<ExecutionEffect, { kind: 'generate' }>,
  state: ExecutionState,
  context: CallContext,
  span: SpanScope,
): Promise<ExecutionInput> {
  throwIfAborted(context.signal);
  const started = context.clock.now();
  const gaps = state.gaps;
  const input = {
    stageId: stage.id,
    spec: state.spec,
    accepted: state.outputs,
    feedback: { ...effect.cause, gaps },
    attempt: effect.attempt,
    signal: context.signal,
  };
  const raw = await context
    .heartbeat((lost) => stage.generate({ ...input, signal: AbortSignal.any([context.signal, lost]) }))
    .then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => {
        const message = `the ${stage.id} generator threw: ${messageOf(error)}`;
        span.fail(message, error);
        return { ok: false as const, error: message };
      },
    );
  throwIfAborted(context.signal);
  const durationMs = Math.max(0, context.clock.now() - started);
  const ts = new Date(context.clock.now()).toISOString();
  if (!raw.ok) return { type: 'generated', ts, durationMs, result: { ok: false, error: raw.error, costUsd: 0 } };
  const checked = checkGeneratorResult(stage.id, raw.value);
  if (!checked.ok)
    return { type: 'generated', ts, durationMs, result: { ok: false, error: checked.error, costUsd: 0 } };
  const { output, outputHash, costUsd } = checked;
  return { type: 'generated', ts, durationMs, result: { ok: true, output, outputHash, costUsd } };
}

/**
 * Parses a generator's result and checks its output can be hashed and
 * persisted. A value that throws while read (a throwing getter, a throwing
 * `toJSON`) or is nested too deep to walk (a `RangeError`) is a failed call
 * with the reason, never a crash of `run()`.
 */
function checkGeneratorResult(
  stageId: string,
  value: unknown,
): { ok: true; output: JsonValue; outputHash: string; costUsd: number } | { ok: false; error: string } {
  try {
    const parsed = generatorResultSchema.safeParse(value);
    if (!parsed.success) {
      const issues = issuesFromZod(parsed.error).map(formatIssue).join('; ');
      return { ok: false, error: `the ${stageId} generator returned a malformed result: ${issues}` };
    }
    const { output, costUsd = 0 } = parsed.data;
    const outputHash = hashJson(output);
    JSON.stringify(output); // the state file holds it: it must serialise
    return { ok: true, output, outputHash, costUsd };
  } catch (error) {
    const why =
      error instanceof RangeError
        ? `its output is nested too deep to check or store (${error.message})`
        : `reading it threw: ${messageOf(error)}`;
    return { ok: false, error: `the ${stageId} generator returned a result that cannot be used: ${why}` };
  }
}

/** Calls a stage's critic on the pending output and reports its reply (a throw is data, recorded on the span). @internal */
export async function callCritic(
  stage: StageDefinition,
  effect: Extract<ExecutionEffect, { kind: 'judge' }>,
  state: ExecutionState,
  context: CallContext,
  span: SpanScope,
): Promise<ExecutionInput> {
  throwIfAborted(context.signal);
  const { critic } = stage;
  if (critic === undefined || state.pending === null)
    throw new Error('unreachable: judging without a critic or output');
  const started = context.clock.now();
  const input = {
    stageId: stage.id,
    output: state.pending.output,
    spec: state.spec,
    accepted: state.outputs,
    judgements: state.judgements,
    attempt: effect.attempt,
    signal: context.signal,
  };
  const reply: CriticReply = await context
    .heartbeat((lost) => critic({ ...input, signal: AbortSignal.any([context.signal, lost]) }))
    .then(
      (value): CriticReply => ({ ok: true, value }),
      (error: unknown): CriticReply => {
        span.fail(`the ${stage.id} critic threw: ${messageOf(error)}`, error);
        return { ok: false, error: messageOf(error) };
      },
    );
  throwIfAborted(context.signal);
  const durationMs = Math.max(0, context.clock.now() - started);
  return { type: 'judged', ts: new Date(context.clock.now()).toISOString(), durationMs, reply };
}
