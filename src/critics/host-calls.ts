import { formatIssue, issuesFromZod } from '../errors.js';
import { hashJson } from '../kit/hash.js';
import type { Clock } from '../ports/clock.js';
import { generatorResultSchema } from './contracts/decision.js';
import type { ExecutionState } from './contracts/execution-state.js';
import type { CriticReply } from './core/check-decision.js';
import type { ExecutionEffect, ExecutionInput } from './core/machine.js';
import type { StageDefinition } from './options.js';

/** What a host call needs besides the stage. @internal */
export interface CallContext {
  readonly clock: Clock;
  readonly signal: AbortSignal;
  /** Keeps the execution's lock fresh while the host works. */
  readonly heartbeat: <T>(work: () => Promise<T>) => Promise<T>;
}

// Rejects with the signal's reason when it fired: the call's result is not committed, so a resume repeats it.
function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

// The message of whatever a host function threw.
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Calls a stage's generator and reports what it gave (a throw or a malformed result is data). @internal */
export async function callGenerator(
  stage: StageDefinition,
  effect: Extract<ExecutionEffect, { kind: 'generate' }>,
  state: ExecutionState,
  context: CallContext,
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
    .heartbeat(() => stage.generate(input))
    .then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error: `the ${stage.id} generator threw: ${messageOf(error)}` }),
    );
  throwIfAborted(context.signal);
  const durationMs = Math.max(0, context.clock.now() - started);
  const ts = new Date(context.clock.now()).toISOString();
  if (!raw.ok) return { type: 'generated', ts, durationMs, result: { ok: false, error: raw.error, costUsd: 0 } };
  const parsed = generatorResultSchema.safeParse(raw.value);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error).map(formatIssue).join('; ');
    const error = `the ${stage.id} generator returned a malformed result: ${issues}`;
    return { type: 'generated', ts, durationMs, result: { ok: false, error, costUsd: 0 } };
  }
  const { output, costUsd = 0 } = parsed.data;
  return { type: 'generated', ts, durationMs, result: { ok: true, output, outputHash: hashJson(output), costUsd } };
}

/** Calls a stage's critic on the pending output and reports its reply (a throw is data). @internal */
export async function callCritic(
  stage: StageDefinition,
  effect: Extract<ExecutionEffect, { kind: 'judge' }>,
  state: ExecutionState,
  context: CallContext,
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
    .heartbeat(() => critic(input))
    .then(
      (value): CriticReply => ({ ok: true, value }),
      (error: unknown): CriticReply => ({ ok: false, error: messageOf(error) }),
    );
  throwIfAborted(context.signal);
  const durationMs = Math.max(0, context.clock.now() - started);
  return { type: 'judged', ts: new Date(context.clock.now()).toISOString(), durationMs, reply };
}
