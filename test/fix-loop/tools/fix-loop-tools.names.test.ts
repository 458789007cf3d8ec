import { describe, expect, it } from 'vitest';
import { FixLoopOrchestrator } from '../../../src/fix-loop/fix-loop-orchestrator.js';
import { createFixLoopTools } from '../../../src/fix-loop/tools/fix-loop-tools.js';
import { createManualClock } from '../../../src/testing/manual-clock.js';
import { failed, ok } from '../../ports/tools.js';
import { BUILD, fixingSource, memoryProject, simulate, toolStartInput as startInput, TEST } from '../helpers.js';

// The tools keep the seed's snake_case names; the orchestrator's API is camelCase. Each call maps one to the other,
// and a refusal of the orchestrator comes back naming the tool's field.

function tools() {
  const sim = simulate(['a']);
  const fixer = new FixLoopOrchestrator({
    fs: memoryProject(),
    dir: 'sessions',
    commands: sim.commands,
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
  });
  const [start, step, run, get] = createFixLoopTools(fixer);
  return { fixer, start, step, run, get };
}

describe('the fix-loop tools and the camelCase API', () => {
  it("maps the seed's names to the orchestrator's camelCase API, and its refusals back to the tool's names", async () => {
    const t = tools();
    const report = { format: 'junit', path: 'out/junit.xml' } as const;
    const started = ok(await t.start.handler(startInput({ test_report: report, max_attempts: 3 })));
    const { state } = await t.fixer.get(started.session_id);
    expect(state).toMatchObject({
      goal_type: 'tests',
      build_command: BUILD,
      test_command: TEST,
      test_report: report,
      max_attempts: 3,
    });
    // Checked by start() itself, not the tool's schema: its issue comes back at the tool's field.
    const idle = failed(await t.start.handler(startInput({ build_command: undefined, test_command: undefined })));
    expect(idle).toMatchObject({ code: 'invalid_input', issues: [{ path: ['test_command'] }] });
    expect(idle.message).toContain('$.test_command: at least one of the build and test commands is required');
    expect(idle.message).not.toContain('testCommand');
  });

  it("names the session id, the clamped bound and the API's camelCase fields in snake_case", async () => {
    const t = tools();
    const clamped = ok(await t.start.handler(startInput({ max_attempts: 10_000 })));
    expect(clamped.issues).toEqual([expect.objectContaining({ code: 'clamped', path: ['max_attempts'] })]);
    const unsafe = failed(await t.step.handler({ session_id: '../x' }));
    expect(unsafe).toMatchObject({ code: 'invalid_input', issues: [{ path: ['session_id'] }] });
    expect(unsafe.message).toContain('$.session_id');
    expect(unsafe.message).not.toContain('sessionId');
    // A camelCase field is not one of the tool's: refused by its schema like any unknown field.
    expect(failed(await t.start.handler({ ...startInput(), goalType: 'tests' })).message).toContain('goalType');
  });

  it("names a camelCase or misspelt argument of every tool at its own path, with the tool's field it means", async () => {
    const t = tools();
    const { session_id } = ok(await t.start.handler(startInput()));
    const { goal_type, test_command, ...rest } = startInput();
    const start = failed(await t.start.handler({ ...rest, goalType: goal_type, testCommand: test_command }));
    expect(start.code).toBe('invalid_input');
    expect(start.message).toContain('$.goalType: unknown key `goalType`; did you mean `goal_type`?');
    expect(start.message).toContain('$.testCommand: unknown key `testCommand`; did you mean `test_command`?');
    expect(start.message).not.toContain('Unrecognized keys');
    for (const [tool, raw, hint] of [
      [t.step, { sessionId: session_id }, '$.sessionId: unknown key `sessionId`; did you mean `session_id`?'],
      [
        t.run,
        { session_id, includeAudit: true },
        '$.includeAudit: unknown key `includeAudit`; did you mean `include_audit`?',
      ],
      [t.get, { session_id, audit_tal: 3 }, '$.audit_tal: unknown key `audit_tal`; did you mean `audit_tail`?'],
    ] as const) {
      const error = failed<unknown>(await tool.handler(raw));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain(hint);
    }
  });
});
