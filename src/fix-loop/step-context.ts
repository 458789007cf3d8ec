import type { Clock } from '../ports/clock.js';
import type { CommandRunner } from '../ports/command-runner.js';
import { withHeartbeat } from '../runtime/heartbeat.js';
import { DEFAULT_HOST_CALL_TIMEOUT_MS } from '../runtime/host-call.js';
import { joinSignals } from '../runtime/joined-signal.js';
import type { RunLock } from '../runtime/run-lock.js';
import type { FixCandidate } from './contracts/candidate.js';
import { defaultProbe } from './environment-probe.js';
import type { StepContext } from './host-calls.js';
import { type FixLoopOrchestratorOptions, keepPolicyOf } from './options.js';

const DEFAULT_COMMAND_TIMEOUT_MS = 600_000;

/**
 * What a step works with, from the orchestrator's options: its ports (the
 * default probe when none is given), the command and host call time limits,
 * and a heartbeat that keeps the session's lock fresh while a host call or a
 * command runs. The step's signal is the orchestrator's joined with `stop`
 * (runToCompletion's wall time), and host calls and commands get one that
 * also fires on the loss of the lock (another worker took it over);
 * `release` cuts the step's signal from the orchestrator's once the step ends.
 *
 * @internal
 */
export function createStepContext(
  options: FixLoopOrchestratorOptions,
  held: {
    readonly clock: Clock;
    readonly lock: RunLock;
    readonly lockTimeoutMs: number;
    readonly commands: CommandRunner;
    readonly stop?: AbortSignal | undefined;
    readonly given?: readonly FixCandidate[] | undefined;
  },
): StepContext & { readonly release: () => void } {
  const { fs } = options;
  const { clock, lock, commands, stop } = held;
  const { signal, release } = joinSignals([options.signal, stop]);
  const heartbeatEvery = Math.max(1, Math.floor(held.lockTimeoutMs / 3));
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
      withHeartbeat(lock, clock, heartbeatEvery, async (lost) => {
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
