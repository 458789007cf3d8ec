import { describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { escalationReportSchema } from '../../src/fix-loop/contracts/escalation.js';
import { renderEscalationMarkdown } from '../../src/fix-loop/core/escalation-markdown.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateSource } from '../../src/fix-loop/host-ports.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { crashing } from '../runtime/helpers.js';
import { memoryProject, type Simulated, simulate, startInput } from './helpers.js';

// An escalated session leaves its report beside its record, as JSON and as Markdown, and says where; a crash right
// after the escalated record is committed leaves the files to the next open of the session, never lost.

const DIR = 'sessions';
const ID = 'esc-1';
const JSON_FILE = `${DIR}/${ID}/escalation.json`;
const MD_FILE = `${DIR}/${ID}/escalation.md`;
const LOCK_TIMEOUT_MS = 60_000;

const manual: FixCandidate = { description: 'rewrite the parser', confidence: 0.95, mutationType: 'manual' };
const fixA: FixCandidate = { description: 'fix a', confidence: 0.9, mutationType: 'auto', data: { fixes: 'a' } };
// Fixes test a, then only a human can fix test b.
const source = (sim: Simulated): CandidateSource => ({
  propose: () => (sim.failing.has('a') ? [fixA, { ...manual, confidence: 0.5 }] : [manual]),
});

const orchestratorOn = (fs: FileSystem, sim: Simulated, clock: ManualClock) =>
  new FixLoopOrchestrator({
    fs,
    dir: DIR,
    commands: sim.commands,
    candidates: source(sim),
    applier: sim.applier,
    clock,
    lockTimeoutMs: LOCK_TIMEOUT_MS,
  });

async function prepared() {
  const fs = memoryProject();
  const sim = simulate(['a', 'b']);
  const clock = createManualClock(0);
  await orchestratorOn(fs, sim, clock).start(startInput({ sessionId: ID }));
  return { fs, sim, clock };
}

// The two files as they should read for the session's record.
async function expectFilesOf(fs: FileSystem, fixer: FixLoopOrchestrator) {
  const view = await fixer.get(ID);
  expect(view.escalation).not.toBeNull();
  const json = JSON.parse((await fs.readText(JSON_FILE)) ?? 'null') as unknown;
  expect(escalationReportSchema.parse(json)).toEqual(view.escalation);
  expect(await fs.readText(MD_FILE)).toBe(renderEscalationMarkdown(escalationReportSchema.parse(json)));
}

describe('fix-loop escalation report files', () => {
  it('writes escalation.json and escalation.md when the session escalates, and the step, run and get() point to them', async () => {
    const { fs, sim, clock } = await prepared();
    const fixer = orchestratorOn(fs, sim, clock);
    const steps = [await fixer.step(ID), await fixer.step(ID), await fixer.step(ID)];
    expect(steps.map((step) => step.escalationFiles)).toEqual([undefined, undefined, undefined]);
    expect((await fixer.get(ID)).escalationFiles).toBeNull();
    expect(await fs.stat(JSON_FILE)).toBeNull();

    const last = await fixer.step(ID);
    expect(last).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'manual_required' } });
    expect(last.escalationFiles).toEqual({ json: JSON_FILE, markdown: MD_FILE });
    expect((await fixer.get(ID)).escalationFiles).toEqual({ json: JSON_FILE, markdown: MD_FILE });
    expect((await fixer.runToCompletion(ID)).escalationFiles).toEqual({ json: JSON_FILE, markdown: MD_FILE });
    await expectFilesOf(fs, fixer);
    expect(await fs.readText(MD_FILE)).toContain('# Fix session escalated: esc-1');
  });

  it('writes no report file for a session that converges', async () => {
    const fs = memoryProject();
    const sim = simulate(['a']);
    const fixer = orchestratorOn(fs, sim, createManualClock(0));
    await fixer.start(startInput({ sessionId: ID }));
    const result = await fixer.runToCompletion(ID);
    expect(result).toMatchObject({ status: 'converged', escalationFiles: null });
    expect(await fs.stat(JSON_FILE)).toBeNull();
    expect(await fs.stat(MD_FILE)).toBeNull();
  });

  it('a crash right after the escalated record leaves the files to the next open: runToCompletion or step() writes them', async () => {
    for (const reopen of ['run', 'step'] as const) {
      const { fs, sim, clock } = await prepared();
      // Fails every write of escalation.json, as if the process died just after the record and the audit line.
      const dying: FileSystem = new Proxy(fs, {
        get: (target, key) =>
          key === 'writeText'
            ? async (path: string, text: string) => {
                if (path === JSON_FILE) throw new Error('killed');
                return target.writeText(path, text);
              }
            : Reflect.get(target, key),
      });
      await expect(orchestratorOn(dying, sim, clock).runToCompletion(ID)).rejects.toThrow('killed');
      const fixer = orchestratorOn(fs, sim, clock);
      expect(await fixer.get(ID)).toMatchObject({ status: 'escalated', escalationFiles: { json: JSON_FILE } });
      expect(await fs.stat(JSON_FILE)).toBeNull();

      clock.advance(LOCK_TIMEOUT_MS + 1);
      if (reopen === 'run') expect(await fixer.runToCompletion(ID)).toMatchObject({ stepsTaken: 0 });
      else await expect(fixer.step(ID)).rejects.toMatchObject({ code: 'SESSION_ENDED' });
      await expectFilesOf(fs, fixer);
      expect(sim.applied).toEqual(['fix a']);
    }
  });

  describe('crash at every write of a session that escalates, then resume', async () => {
    const reference = await prepared();
    const counted = crashing(reference.fs);
    const ref = await orchestratorOn(counted, reference.sim, reference.clock).runToCompletion(ID);
    const writes = counted.writes();

    it('the reference run escalates manual_required with its files', async () => {
      expect(ref).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'manual_required' } });
      await expectFilesOf(reference.fs, orchestratorOn(reference.fs, reference.sim, reference.clock));
    });

    it.each(Array.from({ length: writes }, (_, index) => index + 1))('crash at write %i', async (k) => {
      const { fs, sim, clock } = await prepared();
      await expect(orchestratorOn(crashing(fs, k), sim, clock).runToCompletion(ID)).rejects.toMatchObject({
        code: 'IO_ERROR',
      });
      clock.advance(LOCK_TIMEOUT_MS + 1);
      const fixer = orchestratorOn(fs, sim, clock);
      const result = await fixer.runToCompletion(ID);
      expect(result.status).toBe('escalated');
      expect(result.escalation?.escalation_reason).toBe('manual_required');
      expect(result.escalationFiles).toEqual({ json: JSON_FILE, markdown: MD_FILE });
      await expectFilesOf(fs, fixer);
    });
  });
});
