import type { TraceRecord } from '../../src/critics/contracts/trace.js';
import type { StageDefinition, StagedPipelineOptions } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { critic, DIR, generator, type HostCall } from './helpers.js';

// Host calls that never settle and ignore their signal, and a pipeline waiting on one, for the tests of what stops the
// wait: the pipeline's abort and hostCallTimeoutMs.

/** One turn of the event loop. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A host function that never settles and ignores its signal; `called` resolves with the signal of its first call. */
export function hanging(calls: HostCall[], kind: HostCall['kind']) {
  let reached: (signal: AbortSignal) => void = () => {};
  const called = new Promise<AbortSignal>((resolve) => (reached = resolve));
  const call = (input: { stageId: string; attempt: number; signal: AbortSignal }): Promise<never> => {
    calls.push({ kind, stage: input.stageId, attempt: input.attempt });
    reached(input.signal);
    return new Promise<never>(() => {});
  };
  return { called, call };
}

/** Rejects when `promise` has not settled within `ms` of real time (a hang fails the test at once, not at its timeout). */
export function within<T>(promise: Promise<T>, ms = 1_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The trace records of generator and critic calls, in order. */
export const calledRecords = (trace: readonly TraceRecord[]) =>
  trace.filter((record) => record.kind === 'generated' || record.kind === 'judged');

// plan (with a critic) then code (without), every call recorded: the stages a resumed pipeline runs.
const acceptingStages = (calls: HostCall[]): [StageDefinition, StageDefinition] => [
  { id: 'plan', generate: generator(calls), critic: critic(calls, () => ({ decision: 'accept' })) },
  { id: 'code', generate: generator(calls) },
];

/**
 * A pipeline over plan and code (memory filesystem, manual clock) in which one call never settles and ignores its
 * signal; `resumed()` is another pipeline on the same execution whose calls all answer.
 */
export function hangingAt(
  where: 'plan generator' | 'plan critic' | 'code generator',
  extra: Partial<StagedPipelineOptions>,
) {
  const fs = createMemoryFileSystem();
  const clock = createManualClock(0);
  const calls: HostCall[] = [];
  const host = hanging(calls, where === 'plan critic' ? 'judge' : 'generate');
  const [plan, code] = acceptingStages(calls);
  const stages =
    where === 'plan critic'
      ? [{ ...plan, critic: host.call }, code]
      : where === 'plan generator'
        ? [{ ...plan, generate: host.call }, code]
        : [plan, { ...code, generate: host.call }];
  const pipeline = new StagedPipeline({ fs, dir: DIR, clock, stages, ...extra });
  const resumed = () => new StagedPipeline({ fs, dir: DIR, clock, stages: acceptingStages(calls) });
  return { fs, clock, calls, called: host.called, pipeline, resumed };
}
