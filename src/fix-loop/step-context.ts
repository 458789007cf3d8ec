import type { CommandRunner } from '../ports/command-runner.js';
import { DEFAULT_HOST_CALL_TIMEOUT_MS } from '../runtime/host-call.js';
import { joinSignals } from '../runtime/joined-signal.js';
import type { UnitOfWork } from '../runtime/unit-of-work.js';
import type { FixCandidate } from './contracts/candidate.js';
import { defaultProbe } from './environment-probe.js';
import type { StepContext } from './host-calls.js';
import { type FixLoopOrchestratorOptions, keepPolicyOf } from './options.js';

const DEFAULT_COMMAND_TIMEOUT_MS = 600_000;

/** What a step works with. @internal */
export function createStepContext(
  options: FixLoopOrchestratorOptions,
  held: {
    readonly unit: UnitOfWork;
    readonly commands: CommandRunner;
    readonly stop?: AbortSignal | undefined;
    readonly given?: readonly FixCandidate[] | undefined;
  },
  clock: StepContext['clock'],
): StepContext & { readonly release: () => void } {
  const { fs } = options;
  const { unit, commands } = held;
  const { signal, release } = joinSignals([options.signal, held.stop]);
  return {
    fs,
    clock,
    signal,
    commands,
    commandTimeoutMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    hostCallTimeoutMs: options.hostCallTimeoutMs ?? DEFAULT_HOST_CALL_TIMEOUT_MS,
    candidates: options.candidates,
    applier: options.applier,
    keep: keepPolicyOf(options),
    given: held.given,
    probe: options.probe ?? defaultProbe({ fs, commands }),
    heartbeat: (task) =>
      unit.heartbeat(async (lost) => {
        const joined = joinSignals([signal, lost]);
        try {
          return await task(joined.signal);
        } finally {
          joined.release();
        }
      }),
    release,
  };
}
