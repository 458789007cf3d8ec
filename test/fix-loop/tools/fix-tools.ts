import { FixLoopOrchestrator } from '../../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateSource } from '../../../src/fix-loop/host-ports.js';
import { createFixLoopTools } from '../../../src/fix-loop/tools/fix-loop-tools.js';
import type { FixLoopToolsOptions } from '../../../src/fix-loop/tools/options.js';
import { createManualClock } from '../../../src/testing/manual-clock.js';
import { fixingSource, memoryProject, type Simulated } from '../helpers.js';

// The fix loop's tools over an orchestrator on a simulated workspace: the seed's input names, step results with
// candidates and escalation, a run with its audit log, and every refusal a tool error — a finished session stepped
// again included.

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
