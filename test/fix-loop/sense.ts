import type { GapModel } from '../../src/fix-loop/contracts/gap.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { EnvironmentProbe } from '../../src/fix-loop/host-ports.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createFakeCommandRunner, type FakeCommandRule } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { fixingSource, simulate, startInput } from './helpers.js';

// A session's first two steps, probe and measure, over fake commands and a memory workspace `ws`.

/** A rule under which every program asked for (`command -v`) is on PATH. */
export const ON_PATH: FakeCommandRule = { match: /^command -v /, respond: { exitCode: 0 } };

/** Probes and measures a session with these commands and files; returns the gap after the measure step. */
export async function sense(
  rules: readonly FakeCommandRule[],
  options: {
    fs?: FileSystem;
    files?: Record<string, string>;
    input?: Record<string, unknown>;
    probe?: EnvironmentProbe;
  } = {},
) {
  const fs = options.fs ?? project(options.files);
  const sim = simulate([]);
  const fixer = new FixLoopOrchestrator({
    fs,
    dir: 'sessions',
    commands: createFakeCommandRunner(rules),
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock: createManualClock(0),
    ...(options.probe === undefined ? {} : { probe: options.probe }),
  });
  const { sessionId } = await fixer.start(startInput(options.input));
  const probe = await fixer.step(sessionId);
  const measure = probe.status === 'running' ? await fixer.step(sessionId) : null;
  const view = await fixer.get(sessionId);
  return { fs, probe, measure, state: view.state, gap: view.gap as GapModel };
}

/** A memory project whose workspace `ws` holds a package.json (and these files). */
export const project = (files: Record<string, string> = {}): FileSystem =>
  createMemoryFileSystem({ files: { 'ws/package.json': '{}', ...files } });
