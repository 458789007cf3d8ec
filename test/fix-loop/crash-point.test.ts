import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/fix-loop/contracts/audit.js';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { readAudit } from '../../src/fix-loop/session-files.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { crashing } from '../runtime/helpers.js';
import { memoryProject, type Simulated, simulate, startInput } from './helpers.js';

// THE crash-point test of the fix loop: for every k, the k-th mutating call of a session's run (and every later
// one) fails as if the process died there; a resumed run must reach the uninterrupted result, with exactly one
// audit line per step and no candidate handed to the applier twice.

const DIR = 'sessions';
const ID = 'crash-1';
const LOCK_TIMEOUT_MS = 60_000;

// A static rule table: it proposes every fix each time, those already applied included, so a candidate whose
// application was not recorded as tried would be applied again.
const fix = (description: string, confidence: number, fixes: string): FixCandidate => ({
  description,
  confidence,
  mutationType: 'auto',
  data: { fixes },
});
const TABLE: readonly FixCandidate[] = [
  fix('fix the build', 0.95, 'build'),
  fix('fix a', 0.9, 'a'),
  fix('fix b', 0.85, 'b'),
  fix('fix the build again', 0.5, 'build'),
  fix('fix a again', 0.45, 'a'),
  fix('fix b again', 0.4, 'b'),
];

const orchestratorOn = (fs: FileSystem, sim: Simulated, clock: ManualClock) =>
  new FixLoopOrchestrator({
    fs,
    dir: DIR,
    commands: sim.commands,
    candidates: { propose: () => TABLE },
    applier: sim.applier,
    clock,
    lockTimeoutMs: LOCK_TIMEOUT_MS,
  });

// A fresh project with the session started (starting is not part of the run under test).
async function prepared() {
  const inner = memoryProject();
  const sim = simulate(['a', 'b'], 1);
  const clock = createManualClock(0);
  await orchestratorOn(inner, sim, clock).start(startInput({ sessionId: ID }));
  return { inner, sim, clock };
}

const final = (result: { status: string; gap: unknown; escalation: unknown }) => ({
  status: result.status,
  gap: result.gap,
  escalation: result.escalation,
});

describe('crash at every write of a fix session that fixes the build and two tests', async () => {
  const reference = await prepared();
  const counted = crashing(reference.inner);
  const ref = await orchestratorOn(counted, reference.sim, reference.clock).runToCompletion(ID);
  const writes = counted.writes();

  it('the reference run probes, measures, fixes the build and two tests, and converges', () => {
    expect(ref.status).toBe('converged');
    expect(ref.audit.map((entry) => entry.action_type)).toEqual([
      'probe',
      'measure',
      'build_iteration',
      'test_iteration',
      'test_iteration',
    ]);
    expect(reference.sim.applied).toEqual(['fix the build', 'fix a', 'fix b']);
    // Per step: the record in progress, the record done, its audit line, and the lock (take, release); an
    // iteration writes its candidate as tried in between. Every one of them is a crash point below.
    expect(writes).toBeGreaterThanOrEqual(5 * 5 + 3);
  });

  it.each(Array.from({ length: writes }, (_, index) => index + 1))('crash at write %i, then resume', async (k) => {
    const { inner, sim, clock } = await prepared();
    const crash = await orchestratorOn(crashing(inner, k), sim, clock)
      .runToCompletion(ID)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(crash).toMatchObject({ name: 'GoalLoopError', code: 'IO_ERROR' });

    clock.advance(LOCK_TIMEOUT_MS + 1);
    const result = await orchestratorOn(inner, sim, clock).runToCompletion(ID);

    expect(final(result)).toEqual(final(ref));
    // No candidate is handed to the applier twice, across the crash.
    expect(new Set(sim.applied).size).toBe(sim.applied.length);
    // Exactly one audit line per step, in order, the log and the result agreeing.
    const logged: AuditEntry[] = await readAudit(inner, `${DIR}/${ID}/audit.jsonl`);
    expect(logged.map((entry) => entry.step_index)).toEqual(logged.map((_, index) => index));
    expect(logged.map((entry) => entry.seq)).toEqual(logged.map((_, index) => index));
    expect(result.audit).toEqual(logged);
    // A step cut off is recorded as interrupted, and only such steps are added to the reference's.
    const plain = logged.filter((entry) => entry.interrupted !== true);
    expect(plain.length).toBeGreaterThanOrEqual(ref.audit.length);
    expect(logged.at(-1)?.session_status_after).toBe('converged');
  });
});
