// Fix-loop benchmarks: one step's harness overhead with memory adapters and fake commands, early and late in a session.
import { performance } from 'node:perf_hooks';
import type { FixCandidate } from '../src/contracts.js';
import { type CandidateSource, FixLoopOrchestrator } from '../src/fix-loop.js';
import { createFakeCommandRunner, createManualClock, createMemoryFileSystem } from '../src/testing.js';
import { ms, ratio, row } from './format.js';

const ATTEMPTS = 50;
const SESSIONS = 120;
const WARM_SESSIONS = 40;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

// Fake commands whose failing-test count alternates 3, 2, 3, 2…: every attempt changes the gap, never twice the same
// way, so a session runs its full 50 attempts (no trend, no progress stop) and ends on the attempt bound.
function fakes() {
  let measured = 0;
  const commands = createFakeCommandRunner([
    { match: /^command -v /, respond: { exitCode: 0 } },
    { match: 'npm run build', respond: { exitCode: 0 } },
    {
      match: 'npm test',
      respond: () => {
        const failed = 3 - (measured++ % 2);
        return { exitCode: 1, stdoutTail: `# tests 10\n# pass ${10 - failed}\n# fail ${failed}\n` };
      },
    },
  ]);
  let proposed = 0;
  const candidates: CandidateSource = {
    propose: (): FixCandidate[] => [{ description: `fix ${proposed++}`, confidence: 0.9, mutationType: 'auto' }],
  };
  const applier = { apply: async () => ({ applied: true, detail: 'applied' }) };
  return { commands, candidates, applier };
}

// The time of each step of many sessions, by step index (probe 0, measure 1, iterations 2…51).
export async function stepTimes(): Promise<number[][]> {
  const { commands, candidates, applier } = fakes();
  const fixer = new FixLoopOrchestrator({
    fs: createMemoryFileSystem(),
    dir: 'fix-sessions',
    commands,
    candidates,
    applier,
    clock: createManualClock(0),
  });
  const byIndex: number[][] = [];
  for (let s = 0; s < SESSIONS + WARM_SESSIONS; s++) {
    const { sessionId } = await fixer.start({
      goal: 'tests pass',
      goalType: 'tests',
      workspace: '.',
      buildCommand: 'npm run build',
      testCommand: 'npm test',
      maxAttempts: ATTEMPTS,
    });
    for (let status = 'pending'; status !== 'converged' && status !== 'escalated'; ) {
      const started = performance.now();
      const step = await fixer.step(sessionId);
      const took = performance.now() - started;
      status = step.status;
      if (s < WARM_SESSIONS) continue;
      const times = byIndex[step.stepIndex] ?? [];
      times.push(took);
      byIndex[step.stepIndex] = times;
    }
  }
  return byIndex;
}

// What an iteration step does besides the harness: two commands, one proposal and one application, called directly.
async function hostCost(): Promise<number> {
  const { commands, candidates, applier } = fakes();
  const signal = new AbortController().signal;
  const times: number[] = [];
  for (let i = 0; i < 5_000; i++) {
    const started = performance.now();
    await candidates.propose({} as never);
    await applier.apply();
    await commands.run('npm run build', { cwd: '/', timeoutMs: 1_000, signal });
    await commands.run('npm test', { cwd: '/', timeoutMs: 1_000, signal });
    if (i >= 1_000) times.push(performance.now() - started);
  }
  return median(times);
}

/** Every fix-loop benchmark. */
export async function benchFixLoop(): Promise<void> {
  console.log('\nFixLoopOrchestrator: one step(), memory filesystem, fake commands and host functions');
  const byIndex = await stepTimes();
  const early = median(byIndex.slice(2, 12).flat());
  const late = median(byIndex.slice(ATTEMPTS - 8, ATTEMPTS + 2).flat());
  const host = await hostCost();
  row('probe step', ms(median(byIndex[0] ?? [])), '(lock, command -v ×2, record ×2, audit line)');
  row('measure step', ms(median(byIndex[1] ?? [])), '(lock, build + tests, record ×2, audit line)');
  row('iteration step, attempts 1–10', ms(early), '(lock, propose, apply, measure, record ×3, audit line)');
  row(
    `iteration step, attempts ${ATTEMPTS - 9}–${ATTEMPTS}`,
    ms(late),
    `${ratio(late / early)} the early step (the record holds every attempt; the audit log is only appended)`,
  );
  row('of which the host calls and commands', ms(host), '(the same calls made directly)');
  row('harness time of one iteration step', ms(early - host), '(target well under 1 ms)');
}
