import { describe, expect, it } from 'vitest';
import { failed, ok } from '../../ports/tools.js';
import { simulate, toolStartInput as startInput, tools } from '../helpers.js';

describe('createFixLoopTools', () => {
  it('names the four tools and takes the seed input names, refusing unknown fields', () => {
    const t = tools(simulate(['a']));
    expect([t.start, t.step, t.run, t.get].map((tool) => tool.name)).toEqual([
      'start_feedback_loop',
      'step_feedback_loop',
      'run_feedback_loop',
      'get_feedback_loop',
    ]);
    expect(t.start.inputJsonSchema).toMatchObject({
      type: 'object',
      required: ['goal', 'goal_type', 'workspace'],
      additionalProperties: false,
    });
    expect(Object.keys(t.start.inputJsonSchema.properties as object)).toEqual([
      'goal',
      'goal_type',
      'workspace',
      'build_command',
      'test_command',
      'test_report',
      'max_attempts',
    ]);
    expect(t.step.inputJsonSchema).toMatchObject({ required: ['session_id'] });
    expect(Object.keys(t.run.inputJsonSchema.properties as object)).toEqual([
      'session_id',
      'max_wall_seconds',
      'include_audit',
    ]);
    for (const tool of [t.start, t.step, t.run, t.get]) expect(tool.outputJsonSchema.type).toBe('object');
  });
});

describe('start_feedback_loop', () => {
  it('returns a pending session and persists it; a clamped max_attempts is noted with its path', async () => {
    const t = tools(simulate(['a']));
    const started = ok(await t.start.handler(startInput()));
    expect(started).toEqual({ session_id: 'fix-20260101T000000000Z-1', status: 'pending', issues: [] });
    expect(ok(await t.get.handler({ session_id: started.session_id }))).toMatchObject({
      status: 'pending',
      goal: 'tests pass',
      workspace: 'ws',
      attempts_made: 0,
      audit_tail: [],
    });
    const clamped = ok(await t.start.handler(startInput({ max_attempts: 10_000 })));
    expect(clamped.issues.map((issue) => issue.path)).toEqual([['max_attempts']]);
  });

  it('refuses a missing or escaping workspace and misspelt fields, naming each JSON path', async () => {
    const t = tools(simulate(['a']));
    const missing = failed(await t.start.handler({ goal: 'g', goal_type: 't' }));
    expect(missing.code).toBe('invalid_input');
    expect(missing.message).toContain('$.workspace');
    const escaping = failed(await t.start.handler(startInput({ workspace: '../outside' })));
    expect(escaping).toMatchObject({ code: 'invalid_input', issues: [{ path: ['workspace'] }] });
    const typo = failed(await t.start.handler(startInput({ max_attemps: 3 })));
    expect(typo.message).toContain('max_attemps');
    expect(failed(await t.start.handler(startInput({ maxAttempts: 3 }))).message).toContain('maxAttempts');
  });
});
