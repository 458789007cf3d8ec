import { describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateSource } from '../../src/fix-loop/host-ports.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { memoryProject, simulate, startInput } from './helpers.js';

// `{ d: { d: … 1 } }`, `depth` objects deep.
function nested(depth: number): FixCandidate['data'] {
  let value: FixCandidate['data'] = 1;
  for (let level = 0; level < depth; level += 1) value = { d: value };
  return value;
}

async function run(propose: CandidateSource['propose']) {
  const sim = simulate(['a']);
  const fixer = new FixLoopOrchestrator({
    fs: memoryProject(),
    dir: 'sessions',
    commands: sim.commands,
    candidates: { propose },
    applier: sim.applier,
    clock: createManualClock(0),
  });
  const { sessionId } = await fixer.start(startInput());
  const result = await fixer.runToCompletion(sessionId);
  return { sim, result, view: await fixer.get(sessionId) };
}

describe('fix-loop: a candidate nested too deep', () => {
  it.each([1_500, 10_000])(
    'one nested %i levels is skipped with its JSON path; the well-formed one beside it is applied',
    async (depth) => {
      const { sim, result } = await run(() => [
        { description: 'deep', confidence: 0.9, mutationType: 'auto', data: nested(depth) },
        { description: 'fix a', confidence: 0.1, mutationType: 'auto', data: { fixes: 'a' } },
      ]);
      expect(result.status).toBe('converged');
      expect(sim.applied).toEqual(['fix a']);
      const iteration = result.audit.find((entry) => entry.action_type === 'test_iteration');
      expect(iteration?.action_description).toContain(
        'Skipped 1 malformed candidate(s): $[0].data: The candidate is nested deeper than 256 levels (or holds a cycle).',
      );
    },
  );

  it('a manual candidate nested just under the limit is kept in the record and the escalation report', async () => {
    const data = nested(254);
    const { result, view } = await run(() => [
      { description: 'by hand', confidence: 0.9, mutationType: 'manual', data },
    ]);
    expect(result.escalation?.escalation_reason).toBe('manual_required');
    expect(view.state.manual_candidates).toEqual([
      { description: 'by hand', confidence: 0.9, mutation_type: 'manual', data },
    ]);
    expect(result.escalation?.top_remaining_candidates[0]?.data).toEqual(data);
  });
});
