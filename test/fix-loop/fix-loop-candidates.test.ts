import { describe, expect, it } from 'vitest';
import { candidateRecord, type FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateApplier, CandidateSource } from '../../src/fix-loop/host-ports.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { memoryProject, type Simulated, simulate, startInput } from './helpers.js';

function orchestrator(sim: Simulated, candidates: CandidateSource, applier: CandidateApplier = sim.applier) {
  const fs = memoryProject();
  const fixer = new FixLoopOrchestrator({
    fs,
    dir: 'sessions',
    commands: sim.commands,
    candidates,
    applier,
    clock: createManualClock(0),
  });
  return { fs, fixer };
}

const auto = (description: string, confidence: number, data: Record<string, string> = {}): FixCandidate => ({
  description,
  confidence,
  mutationType: 'auto',
  data,
});

async function run(sim: Simulated, source: CandidateSource, applier?: CandidateApplier, maxAttempts = 5) {
  const { fixer } = orchestrator(sim, source, applier);
  const { sessionId } = await fixer.start(startInput({ maxAttempts: maxAttempts }));
  return { fixer, sessionId, result: await fixer.runToCompletion(sessionId) };
}

describe('fix-loop candidates and escalations', () => {
  it('escalates max_attempts after the bound, never applying a candidate twice', async () => {
    const sim = simulate(['a', 'b', 'c', 'd']);
    // Each proposal fixes one test: progress every time, but four tests need four attempts.
    const source: CandidateSource = {
      propose: () => [...sim.failing].sort().map((name) => auto(`fix ${name}`, 0.9, { fixes: name })),
    };
    const { result } = await run(sim, source, undefined, 2);
    expect(result).toMatchObject({
      status: 'escalated',
      escalation: { escalation_reason: 'max_attempts', attempts_made: 2 },
    });
    expect(sim.applied).toEqual(['fix a', 'fix b']);
    expect(result.escalation?.attempts_summary.map((attempt) => [attempt.gap_before, attempt.gap_after])).toEqual([
      [4, 3],
      [3, 2],
    ]);
    expect(result.stepsTaken).toBe(4);
  });

  it('escalates worsening_trend when two applied fixes in a row make the gap worse', async () => {
    const sim = simulate(['a']);
    let n = 0;
    const source: CandidateSource = {
      propose: () => {
        n += 1;
        return [auto(`break ${n}`, 0.9, { breaks: `new-${n}` })];
      },
    };
    const { result } = await run(sim, source);
    expect(result.escalation?.escalation_reason).toBe('worsening_trend');
    expect(sim.applied).toEqual(['break 1', 'break 2']);
  });

  it('escalates no_progress when two attempts leave the gap as it was, and manual_required with the manual candidates', async () => {
    const flat = simulate(['a']);
    let n = 0;
    const idle: CandidateSource = { propose: () => [auto(`idle ${++n}`, 0.9)] };
    expect((await run(flat, idle)).result.escalation?.escalation_reason).toBe('no_progress');

    const sim = simulate(['a']);
    const manual: FixCandidate = { description: 'rewrite the parser', confidence: 0.95, mutationType: 'manual' };
    const { result } = await run(sim, { propose: () => [manual, auto('tweak', 0.4)] });
    expect(result.escalation).toMatchObject({
      escalation_reason: 'manual_required',
      top_remaining_candidates: [candidateRecord(manual)],
      attempts_made: 0,
    });
    expect(sim.applied).toEqual([]);
  });

  it('reports a manual candidate proposed steps before an escalation for another reason (max_attempts)', async () => {
    const sim = simulate(['a', 'b', 'c', 'd']);
    const manual: FixCandidate = { description: 'rewrite the parser', confidence: 0.3, mutationType: 'manual' };
    let calls = 0;
    // Only the first proposal (step 2) holds the manual candidate; the session escalates at step 4.
    const source: CandidateSource = {
      propose: () => {
        calls += 1;
        const fixes = [...sim.failing].sort().map((name) => auto(`fix ${name}`, 0.9, { fixes: name }));
        return calls === 1 ? [...fixes, manual, { ...manual, confidence: 0.1 }] : fixes;
      },
    };
    const { result, fixer, sessionId } = await run(sim, source, undefined, 3);
    expect(result.escalation).toMatchObject({ escalation_reason: 'max_attempts', attempts_made: 3 });
    expect(result.audit.at(-1)?.step_index).toBe(4);
    expect(result.escalation?.top_remaining_candidates).toEqual([candidateRecord(manual)]);
    expect((await fixer.get(sessionId)).state.manual_candidates).toEqual([candidateRecord(manual)]);
    expect(sim.applied).toEqual(['fix a', 'fix b', 'fix c']);
  });

  it('escalates all_auto_tried when every proposed candidate was tried, with the selector sentence', async () => {
    const sim = simulate(['a', 'b']);
    const source: CandidateSource = { propose: () => [auto('fix a', 0.9, { fixes: 'a' })] };
    const { result } = await run(sim, source);
    expect(result.escalation).toMatchObject({ escalation_reason: 'all_auto_tried', attempts_made: 1 });
    expect(result.escalation?.detail).toMatch(/already tried/);
    expect(sim.applied).toEqual(['fix a']);
  });

  it('skips malformed candidates with the reason in the audit line, and applies the well-formed one', async () => {
    const sim = simulate(['a']);
    const source = {
      propose: () => [{ description: 'no confidence', mutationType: 'auto' }, 42, auto('fix a', 0.5, { fixes: 'a' })],
    } as unknown as CandidateSource;
    const { result, fixer, sessionId } = await run(sim, source);
    expect(result.status).toBe('converged');
    const iteration = result.audit.find((entry) => entry.action_type === 'test_iteration');
    expect(iteration?.action_description).toMatch(
      /Skipped 2 malformed candidate\(s\): \$\[0\]\.confidence: .*\| \$\[1\]: /,
    );
    expect((await fixer.get(sessionId)).state.attempts).toHaveLength(1);
  });

  it('records a throwing or non-array source as an attempt with the error, then escalates no_progress', async () => {
    const sim = simulate(['a']);
    let calls = 0;
    const source: CandidateSource = {
      propose: () => {
        calls += 1;
        if (calls === 1) throw new Error('model offline');
        return 'nothing' as unknown as FixCandidate[];
      },
    };
    const { result, fixer, sessionId } = await run(sim, source);
    expect(result.escalation?.escalation_reason).toBe('no_progress');
    const { attempts } = (await fixer.get(sessionId)).state;
    expect(attempts.map((attempt) => [attempt.outcome, attempt.detail])).toEqual([
      ['not_applied', 'the candidate source threw: model offline'],
      ['not_applied', 'the candidate source returned string, not an array'],
    ]);
  });

  it('records an applier that throws or answers nonsense as not_applied, never a crash', async () => {
    const sim = simulate(['a']);
    let n = 0;
    const applier: CandidateApplier = {
      apply: async () => {
        n += 1;
        if (n === 1) throw new Error('disk full');
        return { done: true } as never;
      },
    };
    const source: CandidateSource = { propose: () => [auto('one', 0.9), auto('two', 0.8), auto('three', 0.7)] };
    const { fixer, sessionId } = await run(sim, source, applier);
    const { attempts } = (await fixer.get(sessionId)).state;
    expect(attempts.map((attempt) => [attempt.candidate_description, attempt.outcome, attempt.detail])).toEqual([
      ['one', 'not_applied', 'the applier threw: disk full'],
      ['two', 'not_applied', 'the applier returned no { applied: boolean, detail } answer'],
    ]);
  });

  it('gives the source a read-only copy of the session, the failure output and the gap', async () => {
    const sim = simulate(['a']);
    const seen: unknown[] = [];
    const source: CandidateSource = {
      propose: (input) => {
        seen.push({ output: input.failureOutput, gap: input.gap.gap, attempts: input.session.attempts.length });
        (input.session as { tried: string[] }).tried.push('tampered');
        return [auto('fix a', 0.9, { fixes: 'a' })];
      },
    };
    const { fixer, sessionId } = await run(sim, source);
    expect(seen).toEqual([{ output: expect.stringContaining('not ok 1 - a'), gap: 1, attempts: 0 }]);
    expect((await fixer.get(sessionId)).state.tried).toHaveLength(1);
  });
});
