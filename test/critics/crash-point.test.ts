import { describe, expect, it } from 'vitest';
import { type ExecutionState, executionStateSchema } from '../../src/critics/contracts/execution-state.js';
import type { StagedResult } from '../../src/critics/contracts/result.js';
import type { TraceRecord } from '../../src/critics/contracts/trace.js';
import type { StageDefinition } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { readTrace } from '../../src/critics/trace-file.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { crashing } from '../runtime/helpers.js';
import { type HostCall, seedStages } from './helpers.js';

// THE crash-point test of the staged critics: for every k, the k-th mutating call (and every later one)
// fails as if the process died there; a resumed execution must reach the uninterrupted result, with no
// generator or critic call recorded twice and no attempt counted twice.

const DIR = 'critics';
const ID = 'feat-42';
const LOCK_TIMEOUT_MS = 60_000;

type Scenario = 'seed' | 'probation';

// The seed's stages; under `probation` the code critic is on probation and its accepts go to a second critic, which
// retries the code critic's first accept (code attempt 2) and accepts after: it answers by its input, as a resumed
// call must.
function stagesOf(scenario: Scenario, calls: HostCall[]): StageDefinition[] {
  const stages = seedStages(calls);
  if (scenario === 'seed') return stages;
  const secondCritic = async ({ attempt }: { attempt: number }) => {
    calls.push({ kind: 'judge', stage: 'code/second', attempt });
    return attempt === 2 ? { decision: 'retry' as const, issues: [{ issue: 'unchecked error path' }] } : accept;
  };
  return stages.map((stage) => (stage.id === 'code' ? { ...stage, secondCritic } : stage));
}
const accept = { decision: 'accept' as const };

const pipelineOn = (fs: FileSystem, clock: ManualClock, calls: HostCall[], scenario: Scenario = 'seed') =>
  new StagedPipeline({
    fs,
    dir: DIR,
    stages: stagesOf(scenario, calls),
    clock,
    lockTimeoutMs: LOCK_TIMEOUT_MS,
    ...(scenario === 'probation' ? { standing: { code: 'probation' } } : {}),
  });
const request = { executionId: ID, spec: { feature: 'login' } };

// What a record means, without its timestamp.
const essence = (record: TraceRecord): string => {
  const { ts: _ts, ...rest } = record;
  return JSON.stringify(rest);
};
const callOf = (record: TraceRecord): string | null =>
  record.kind === 'generated' || record.kind === 'judged'
    ? `${record.kind === 'generated' ? 'generate' : 'judge'} ${record.stage}#${record.attempt}`
    : null;
const outcome = ({ trace: _trace, ...rest }: StagedResult) => rest;

async function readState(fs: FileSystem): Promise<ExecutionState | null> {
  const text = await fs.readText(`${DIR}/${ID}/state.json`);
  return text === null ? null : executionStateSchema.parse(JSON.parse(text));
}

// For every k, crashes the execution at its k-th write, resumes it, and compares with the uninterrupted run.
function crashAtEveryWrite(
  scenario: Scenario,
  checkReference: (ref: StagedResult, calls: number, writes: number) => void,
) {
  return async () => {
    const fs = crashing(createMemoryFileSystem());
    const refCalls: HostCall[] = [];
    const ref = await pipelineOn(fs, createManualClock(0), refCalls, scenario).run(request);
    const writes = fs.writes();

    it('the reference execution', () => checkReference(ref, refCalls.length, writes));

    it.each(Array.from({ length: writes }, (_, index) => index + 1))('crash at write %i, then resume', async (k) => {
      const inner = createMemoryFileSystem();
      const clock = createManualClock(0);
      const crashedCalls: HostCall[] = [];
      const crash = await pipelineOn(crashing(inner, k), clock, crashedCalls, scenario)
        .run(request)
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(crash).toMatchObject({ name: 'GoalLoopError', code: 'IO_ERROR' });
      const state = await readState(inner);
      const committed = new Set(
        [...(await readTrace(inner, `${DIR}/${ID}/trace.jsonl`)), ...(state?.outbox ?? [])].map(callOf),
      );

      clock.advance(LOCK_TIMEOUT_MS + 1);
      const calls: HostCall[] = [];
      const result = await pipelineOn(inner, clock, calls, scenario).run(request);

      expect(outcome(result)).toEqual(outcome(ref));
      expect(result.trace.map(essence)).toEqual(ref.trace.map(essence));
      expect(result.trace.map((record) => record.seq)).toEqual(ref.trace.map((_, index) => index));
      // No committed call is made again on resume.
      const repeated = calls.filter((call) => committed.has(`${call.kind} ${call.stage}#${call.attempt}`));
      expect(repeated).toEqual([]);
      // Together, the two runs made every call of the reference, at most the one in flight twice.
      expect(crashedCalls.length + calls.length - refCalls.length).toBeLessThanOrEqual(1);
    });
  };
}

describe(
  'crash at every write of an execution with one retry and one route back',
  crashAtEveryWrite('seed', (ref, calls, writes) => {
    expect(ref).toMatchObject({
      status: 'completed',
      backtracks: 1,
      attempts: { plan: 3, code: 2, test: 1, deploy: 1 },
    });
    expect(ref.trace.filter((record) => record.kind === 'judged' && record.decision === 'retry')).toHaveLength(1);
    expect(calls).toBe(13);
    // A state write per call (13) and an append per trace record (13 calls and the end), plus the lock's own
    // writes (taking and releasing it: two today); every one of them is a crash point below.
    expect(writes).toBeGreaterThanOrEqual(13 + 14 + 2);
  }),
);

describe(
  'crash at every write of an execution whose code critic is on probation',
  crashAtEveryWrite('probation', (ref, calls) => {
    // code#2 accepted by its critic, retried by the second critic; code#3 accepted by both.
    expect(ref).toMatchObject({ status: 'completed', backtracks: 1, attempts: { plan: 3, code: 3 } });
    const code = ref.trace.filter((record) => record.kind === 'judged' && record.stage === 'code');
    expect(
      code.map((record) => (record.kind === 'judged' ? `${record.by ?? 'critic'} ${record.action.kind}` : '')),
    ).toEqual(['critic route_back', 'critic confirm', 'second_critic retry', 'critic confirm', 'second_critic accept']);
    expect(calls).toBe(17);
  }),
);
