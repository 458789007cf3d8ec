import { describe, expect, it } from 'vitest';
import { GoalLoopError, type GoalLoopErrorCode } from '../../src/errors.js';
import { toolError } from '../../src/ports/define-tool.js';
import { echo } from './tools.js';

// defineTool's errors as data: a thrown library error mapped by its code, a returned toolError passed through, an
// output that breaks its schema refused.

describe('defineTool', () => {
  it('maps a thrown library error by its code, and anything else to internal', async () => {
    const locked = echo(async () => {
      throw new GoalLoopError('RUN_LOCKED', 'held by another loop');
    });
    expect(await locked.handler({ text: 'a' })).toEqual({
      isError: true,
      error: { code: 'busy', message: 'held by another loop', issues: [] },
    });
    const issues = [{ code: 'bad', path: ['x'], message: 'no' }];
    const invalid = echo(async () => {
      throw new GoalLoopError('INVALID_CONTRACT', 'file is bad', { issues });
    });
    expect(await invalid.handler({ text: 'a' })).toMatchObject({
      error: { code: 'invalid_contract', message: 'file is bad', issues },
    });
    const crash = echo(async () => {
      throw new TypeError('boom');
    });
    expect(await crash.handler({ text: 'a' })).toMatchObject({
      isError: true,
      error: { code: 'internal', message: 'echo failed: boom' },
    });
    const rejectsString = echo(() => Promise.reject('plain'));
    expect(await rejectsString.handler({ text: 'a' })).toMatchObject({ error: { code: 'internal' } });
  });

  it('maps every library error code to a code of its own, none to internal', async () => {
    // A Record over the union: a new GoalLoopErrorCode fails to compile here until it is given its tool code.
    const expected: Record<GoalLoopErrorCode, string> = {
      RUN_LOCKED: 'busy',
      INVALID_OPTIONS: 'invalid_input',
      INVALID_CONTRACT: 'invalid_contract',
      IO_ERROR: 'io_error',
      STATE_CORRUPT: 'invalid_contract',
      SESSION_NOT_FOUND: 'not_found',
      SESSION_ENDED: 'invalid_state',
    };
    for (const [code, toolCode] of Object.entries(expected)) {
      const thrower = echo(async () => {
        throw new GoalLoopError(code as GoalLoopErrorCode, code);
      });
      expect(await thrower.handler({ text: 'a' })).toMatchObject({ error: { code: toolCode, message: code } });
    }
  });

  it('passes a returned toolError through as plain data, its issues in the message', async () => {
    const refused = echo(async () =>
      toolError('invalid_state', 'already done', [{ code: 'terminal', path: ['session_id'], message: 'converged' }]),
    );
    const result = await refused.handler({ text: 'a' });
    expect(result).toEqual({
      isError: true,
      error: {
        code: 'invalid_state',
        message: 'already done: $.session_id: converged',
        issues: [{ code: 'terminal', path: ['session_id'], message: 'converged' }],
      },
    });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('refuses an output that does not match its schema instead of returning it', async () => {
    const wrong = echo(async () => ({ text: 1, items: [] }));
    const result = await wrong.handler({ text: 'a' });
    expect(result).toMatchObject({ isError: true, error: { code: 'internal', issues: [{ path: ['text'] }] } });
  });
});
