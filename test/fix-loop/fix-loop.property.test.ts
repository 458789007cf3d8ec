import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateSource } from '../../src/fix-loop/host-ports.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { BUILD, memoryProject, startInput, TEST } from './helpers.js';

// Whatever the candidate source proposes (or throws), whatever the applier answers and whatever gaps the
// commands measure, runToCompletion ends — converged or escalated — within max_attempts iterations plus the
// probe and the first measurement, with one audit line per step.

const candidateArb: fc.Arbitrary<FixCandidate> = fc.record({
  description: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  mutationType: fc.constantFrom<'auto' | 'manual'>('auto', 'auto', 'auto', 'manual'),
});

// What the source does on one call: propose these candidates, throw, or return something that is not a list.
const proposalArb = fc.oneof(
  { weight: 6, arbitrary: fc.array(candidateArb, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constant('throw' as const) },
  { weight: 1, arbitrary: fc.constant('garbage' as const) },
);

// One measurement: build error lines (0 = passing) and failed tests.
const gapArb = fc.record({ build: fc.nat({ max: 3 }), failed: fc.nat({ max: 4 }) });

const scenarioArb = fc.record({
  maxAttempts: fc.integer({ min: 1, max: 8 }),
  gaps: fc.array(gapArb, { minLength: 1, maxLength: 12 }),
  proposals: fc.array(proposalArb, { minLength: 1, maxLength: 12 }),
  applied: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
  missing: fc.boolean(),
});

// The i-th element of a list, the last one once it runs out.
const at = <T>(list: readonly T[], index: number): T => list[Math.min(index, list.length - 1)] as T;

describe('fix-loop runToCompletion (property)', () => {
  it('always ends within max_attempts iterations plus the probe and the first measurement', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        let measured = 0;
        let proposed = 0;
        let applies = 0;
        const gap = () => at(scenario.gaps, measured);
        const commands = createFakeCommandRunner([
          { match: /^command -v /, respond: { exitCode: scenario.missing ? 1 : 0 } },
          {
            match: BUILD,
            respond: () =>
              gap().build === 0
                ? { exitCode: 0 }
                : { exitCode: 1, stdoutTail: 'x.ts: error TS1: e\n'.repeat(gap().build) },
          },
          {
            match: TEST,
            respond: () => {
              const { failed } = gap();
              measured += 1;
              return {
                exitCode: failed === 0 ? 0 : 1,
                stdoutTail: `# tests ${failed + 2}\n# pass 2\n# fail ${failed}\n`,
              };
            },
          },
        ]);
        const candidates: CandidateSource = {
          propose: () => {
            const answer = at(scenario.proposals, proposed++);
            if (answer === 'throw') throw new Error('source fault');
            return answer === 'garbage' ? ({ not: 'a list' } as never) : answer;
          },
        };
        const fixer = new FixLoopOrchestrator({
          fs: memoryProject(),
          dir: 'sessions',
          commands,
          candidates,
          applier: { apply: async () => ({ applied: at(scenario.applied, applies++), detail: '' }) },
          clock: createManualClock(0),
        });
        const { sessionId } = await fixer.start(startInput({ maxAttempts: scenario.maxAttempts }));
        const result = await fixer.runToCompletion(sessionId);
        expect(['converged', 'escalated']).toContain(result.status);
        expect(result.stepsTaken).toBeLessThanOrEqual(scenario.maxAttempts + 2);
        expect(result.audit).toHaveLength(result.stepsTaken);
        const state = await fixer.get(sessionId);
        expect(state.attemptsMade).toBeLessThanOrEqual(scenario.maxAttempts);
        expect(applies).toBeLessThanOrEqual(scenario.maxAttempts);
        if (result.status === 'escalated') expect(result.escalation).not.toBeNull();
        else expect(result.gap?.gap).toBe(0);
      }),
      { numRuns: 150 },
    );
  });
});
