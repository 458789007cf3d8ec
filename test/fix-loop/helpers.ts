import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateApplier, CandidateSource } from '../../src/fix-loop/host-ports.js';
import type { FixLoopOrchestratorOptions } from '../../src/fix-loop/options.js';
import { createFixLoopTools } from '../../src/fix-loop/tools/fix-loop-tools.js';
import type { FixLoopToolsOptions } from '../../src/fix-loop/tools/options.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createFakeCommandRunner, type FakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

/**
 * A workspace simulated in memory: failing tests and build errors that the
 * fake commands report, and that the fake applier fixes by name.
 */
export interface Simulated {
  readonly failing: Set<string>;
  buildErrors: number;
  /** Descriptions of the candidates applied, in order. */
  readonly applied: string[];
  readonly commands: FakeCommandRunner;
  readonly applier: CandidateApplier;
}

export const BUILD = 'npm run build';
export const TEST = 'npm test';

/** The start input of a session on the simulated workspace `ws`. */
export const startInput = (extra: Record<string, unknown> = {}) => ({
  goal: 'tests pass',
  goalType: 'tests',
  workspace: 'ws',
  buildCommand: BUILD,
  testCommand: TEST,
  maxAttempts: 5,
  ...extra,
});

/** The same start as `start_feedback_loop` takes it: the tools' snake_case names. */
export const toolStartInput = (extra: Record<string, unknown> = {}) => ({
  goal: 'tests pass',
  goal_type: 'tests',
  workspace: 'ws',
  build_command: BUILD,
  test_command: TEST,
  max_attempts: 5,
  ...extra,
});

/** A memory filesystem holding the workspace `ws` (a package.json without dependencies). */
export function memoryProject(): FileSystem {
  return createMemoryFileSystem({ files: { 'ws/package.json': '{"name":"ws"}\n' } });
}

/** Simulates a workspace with the given failing tests and build errors. */
export function simulate(failing: readonly string[], buildErrors = 0): Simulated {
  const sim: Simulated = {
    failing: new Set(failing),
    buildErrors,
    applied: [],
    commands: createFakeCommandRunner([
      { match: /^command -v /, respond: { exitCode: 0, stdoutTail: '/usr/bin/npm\n' } },
      {
        match: BUILD,
        respond: () =>
          sim.buildErrors === 0
            ? { exitCode: 0 }
            : {
                exitCode: 2,
                stdoutTail: Array.from(
                  { length: sim.buildErrors },
                  (_, i) => `src/a.ts(${i + 1},1): error TS2304: x\n`,
                ).join(''),
              },
      },
      {
        match: TEST,
        respond: () => {
          const failed = [...sim.failing].sort();
          const lines = failed.map((name, i) => `not ok ${i + 1} - ${name}`);
          return {
            exitCode: failed.length === 0 ? 0 : 1,
            stdoutTail: `${lines.join('\n')}\n# tests ${failed.length + 3}\n# pass 3\n# fail ${failed.length}\n`,
          };
        },
      },
    ]),
    applier: {
      async apply(candidate) {
        const data = candidate.data as { fixes?: string; breaks?: string } | undefined;
        sim.applied.push(candidate.description);
        if (data?.fixes === 'build') sim.buildErrors = 0;
        else if (data?.fixes !== undefined) sim.failing.delete(data.fixes);
        if (data?.breaks !== undefined) sim.failing.add(data.breaks);
        return { applied: true, detail: `applied ${candidate.description}` };
      },
    },
  };
  return sim;
}

/** A source proposing, for each failing test, a fix (0.9) and an alternate fix (0.5); the build first. */
export function fixingSource(sim: Simulated, calls: unknown[] = []): CandidateSource {
  return {
    propose(input) {
      calls.push(input);
      const candidates: FixCandidate[] = [];
      if (sim.buildErrors > 0) {
        candidates.push({
          description: 'fix the build',
          confidence: 0.9,
          mutationType: 'auto',
          data: { fixes: 'build' },
        });
        candidates.push({
          description: 'fix the build again',
          confidence: 0.5,
          mutationType: 'auto',
          data: { fixes: 'build' },
        });
        return candidates;
      }
      for (const name of [...sim.failing].sort()) {
        candidates.push({ description: `fix ${name}`, confidence: 0.9, mutationType: 'auto', data: { fixes: name } });
        candidates.push({
          description: `fix ${name} (alternate)`,
          confidence: 0.5,
          mutationType: 'auto',
          data: { fixes: name },
        });
      }
      return candidates;
    },
  };
}

/** The options of an orchestrator on `fs` whose commands and applier are the simulated workspace's, fixing it. */
export function simulatedOptions(sim: Simulated, fs: FileSystem, dir: string): FixLoopOrchestratorOptions {
  return {
    fs,
    dir,
    commands: sim.commands,
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock: createManualClock(0),
  };
}

/** The directory the orchestrator keeps its sessions in. */
export const DIR = '.goal-loop/fix-sessions';

/** The four tools over an orchestrator on the simulated workspace `sim`, proposing from `candidates`. */
export function tools(
  sim: Simulated,
  candidates: CandidateSource = fixingSource(sim),
  options: FixLoopToolsOptions = {},
) {
  const fixer = new FixLoopOrchestrator({
    fs: memoryProject(),
    dir: DIR,
    commands: sim.commands,
    candidates,
    applier: sim.applier,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
  });
  const [start, step, run, get] = createFixLoopTools(fixer, options);
  return { fixer, start, step, run, get };
}

/** A source whose only proposal needs a human. */
export const manualOnly: CandidateSource = {
  propose: () => [{ description: 'rewrite the parser by hand', confidence: 0.9, mutationType: 'manual' }],
};
