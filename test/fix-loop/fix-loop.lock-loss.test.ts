import { describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { FixLoopOrchestratorOptions } from '../../src/fix-loop/options.js';
import { readAudit } from '../../src/fix-loop/session-files.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { fixingSource, memoryProject, simulate, startInput, TEST } from './helpers.js';

// A worker that loses a fix session's lock while a host call or a command runs must stop there: the call's signal
// fires once its heartbeat finds another orchestrator holding the session, its step ends RUN_LOCKED, and it runs
// no further command and writes nothing (the audit log and the record stay as the orchestrator that took over left
// them).

const DIR = 'sessions';
const ID = 'lost-1';
const LOCK_TIMEOUT_MS = 9_000;
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

// Where the loser blocks: in the candidate source, in the applier, or in the test command of a measurement.
type Blocked = 'the candidate source' | 'the applier' | 'a command';

async function loseDuring(blocked: Blocked) {
  const fs: FileSystem = memoryProject();
  const sim = simulate(['a']);
  const clock = createManualClock(0);
  let seen: AbortSignal | undefined;
  let entered!: () => void;
  const inCall = new Promise<void>((resolve) => {
    entered = resolve;
  });
  // Honours its signal: it ends only when aborted.
  const wait = <T>(signal: AbortSignal, answer: T): Promise<T> => {
    seen = signal;
    entered();
    return new Promise<T>((resolve) => signal.addEventListener('abort', () => resolve(answer)));
  };
  // The loser's commands: its own test run blocks when that is the case under test; every call is counted.
  const ran: string[] = [];
  const commands = createFakeCommandRunner([
    {
      match: () => true,
      respond: (command, options) => {
        ran.push(command);
        if (blocked === 'a command' && command === TEST)
          return wait(options.signal ?? AbortSignal.abort(), { exitCode: null, aborted: true });
        return sim.commands.run(command, options);
      },
    },
  ]);
  const fix: FixCandidate = { description: 'fix a', confidence: 0.9, mutationType: 'auto', data: { fixes: 'a' } };
  const options = (extra: Partial<FixLoopOrchestratorOptions>): FixLoopOrchestratorOptions => ({
    fs,
    dir: DIR,
    commands: sim.commands,
    candidates: fixingSource(sim),
    applier: sim.applier,
    lockTimeoutMs: LOCK_TIMEOUT_MS,
    ...extra,
  });
  const loser = new FixLoopOrchestrator(
    options({
      commands,
      clock,
      candidates: {
        propose: ({ signal }) => (blocked === 'the candidate source' ? wait(signal, [fix]) : [fix]),
      },
      applier: {
        apply: async (candidate, context) =>
          blocked === 'the applier'
            ? wait(context.signal, { applied: false, detail: 'aborted' })
            : sim.applier.apply(candidate, context),
      },
    }),
  );
  await loser.start(startInput({ sessionId: ID, buildCommand: undefined }));
  await loser.step(ID); // probe
  if (blocked !== 'a command') await loser.step(ID); // measure; the next step is an iteration
  const outcome = loser.step(ID).then(
    () => 'resolved',
    (error: { code?: string }) => error.code,
  );
  await inCall;

  // Another orchestrator, whose clock says the loser's heartbeat is stale, takes the session over and steps it.
  const taker = new FixLoopOrchestrator(options({ clock: createManualClock(LOCK_TIMEOUT_MS + 1) }));
  const taken = await taker.step(ID);
  const left = {
    audit: await fs.readText(`${DIR}/${ID}/audit.jsonl`),
    state: await fs.readText(`${DIR}/${ID}/state.json`),
  };
  const beforeLoss = { aborted: seen?.aborted, ran: ran.length };

  // The loser's next heartbeat finds the lock gone: its call is aborted and its step ends.
  clock.advance(LOCK_TIMEOUT_MS);
  await tick();
  return { fs, taken, left, beforeLoss, seen, ran, outcome: await outcome };
}

describe('fix-loop: losing the session lock during a host call or a command', () => {
  it.each<Blocked>(['the candidate source', 'the applier', 'a command'])(
    'during %s: its signal aborts, the step ends RUN_LOCKED, and the loser runs and writes nothing more',
    async (blocked) => {
      const { fs, taken, left, beforeLoss, seen, ran, outcome } = await loseDuring(blocked);
      // The taker found the loser's step cut off, recorded it interrupted and measured again.
      const cut = blocked === 'a command' ? 1 : 2;
      expect(taken).toMatchObject({ stepIndex: cut + 1, action: 'measure', interrupted: { step_index: cut } });
      expect(beforeLoss.aborted).toBe(false);

      expect(seen?.aborted).toBe(true);
      expect(outcome).toBe('RUN_LOCKED');
      expect(ran).toHaveLength(beforeLoss.ran);
      expect(await fs.readText(`${DIR}/${ID}/audit.jsonl`)).toBe(left.audit);
      expect(await fs.readText(`${DIR}/${ID}/state.json`)).toBe(left.state);
      const audit = await readAudit(fs, `${DIR}/${ID}/audit.jsonl`);
      expect(audit.map((entry) => entry.step_index)).toEqual(audit.map((_, index) => index));
      expect(audit.filter((entry) => entry.interrupted === true).map((entry) => entry.step_index)).toEqual([cut]);
    },
  );
});
