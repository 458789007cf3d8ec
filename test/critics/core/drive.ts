import type { ExecutionState, FeedbackCause } from '../../../src/critics/contracts/execution-state.js';
import type { TraceRecord } from '../../../src/critics/contracts/trace.js';
import { effectOf, type MachineConfig, transition } from '../../../src/critics/core/machine.js';
import { initialExecutionState } from '../../../src/critics/core/start.js';

/** Plans `ids` with critics on every stage but the last, budget 3, gaps when spent. */
export function planOf(ids: readonly string[], over: Partial<MachineConfig> = {}): MachineConfig {
  return {
    stages: ids.map((id, index) => ({
      id,
      hasCritic: index < ids.length - 1,
      retryBudget: 3,
      onBudgetSpent: 'accept_with_gaps',
    })),
    maxBacktracks: 3,
    variant: 'route_back',
    budgetUsd: undefined,
    ...over,
  };
}

/**
 * Drives the pure machine with scripted critic replies (cycled) until the end or `maxCalls` generator calls; returns
 * the last state, the trace, and each generator call with its cause.
 */
export function drive(
  config: MachineConfig,
  reply: (stage: string, attempt: number, index: number) => unknown,
  options: {
    readonly generatorCost?: number;
    readonly maxCalls?: number;
    readonly fail?: (stage: string) => boolean;
  } = {},
): {
  state: ExecutionState;
  trace: TraceRecord[];
  generatorCalls: number;
  causes: { stage: string; attempt: number; cause: FeedbackCause }[];
} {
  let state = initialExecutionState({ executionId: 'e', spec: { goal: 'x' }, specHash: 'h', nextSeq: 0, ts: 't0' });
  const trace: TraceRecord[] = [];
  let generatorCalls = 0;
  const causes: { stage: string; attempt: number; cause: FeedbackCause }[] = [];
  let judged = 0;
  const max = options.maxCalls ?? 10_000;
  for (let effect = effectOf(state, config); effect.kind !== 'finish' && generatorCalls <= max; ) {
    const step =
      effect.kind === 'generate'
        ? transition(
            state,
            {
              type: 'generated',
              ts: 't',
              durationMs: 1,
              result:
                options.fail?.(effect.stage) === true
                  ? { ok: false, error: 'boom', costUsd: 0 }
                  : {
                      ok: true,
                      output: { stage: effect.stage, attempt: effect.attempt },
                      outputHash: `${effect.stage}#${effect.attempt}`,
                      costUsd: options.generatorCost ?? 0,
                    },
            },
            config,
          )
        : transition(
            state,
            {
              type: 'judged',
              ts: 't',
              durationMs: 1,
              reply: { ok: true, value: reply(effect.stage, effect.attempt, judged++) },
            },
            config,
          );
    if (effect.kind === 'generate') {
      generatorCalls += 1;
      causes.push({ stage: effect.stage, attempt: effect.attempt, cause: effect.cause });
    }
    state = step.state;
    trace.push(...step.records);
    effect = step.effect;
  }
  return { state, trace, generatorCalls, causes };
}
