import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { errorTypeOf, genAiAttributes } from '../../src/ports/gen-ai.js';

// The GenAI attributes of each span role, and the error.type of whatever a failure carries.

describe('genAiAttributes', () => {
  it.each([
    [
      { kind: 'workflow', name: 'goal-loop' },
      { 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.agent.name': 'goal-loop' },
    ],
    [
      { kind: 'agent', name: '07-code' },
      { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': '07-code' },
    ],
    [{ kind: 'agent' }, { 'gen_ai.operation.name': 'invoke_agent' }],
    [
      { kind: 'tool', name: 'npm test' },
      { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'npm test' },
    ],
  ] as const)('%o → %o', (role, attributes) => {
    expect(genAiAttributes(role)).toEqual(attributes);
  });
});

describe('errorTypeOf', () => {
  it("is a GoalLoopError's code, an error's name, else _OTHER", () => {
    expect(errorTypeOf(new GoalLoopError('RUN_LOCKED', 'locked'))).toBe('RUN_LOCKED');
    expect(errorTypeOf(new TypeError('x'))).toBe('TypeError');
    expect(errorTypeOf(new DOMException('stop', 'AbortError'))).toBe('AbortError');
    expect(errorTypeOf(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(errorTypeOf(undefined)).toBe('_OTHER');
    expect(errorTypeOf('a string')).toBe('_OTHER');
    expect(errorTypeOf({ code: '', name: '' })).toBe('_OTHER');
    const hostile = Object.defineProperty({}, 'code', {
      get() {
        throw new Error('no');
      },
    });
    expect(errorTypeOf(hostile)).toBe('_OTHER');
  });

  it('is a non-empty string for anything thrown (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (thrown) => {
        const type = errorTypeOf(thrown);
        expect(typeof type).toBe('string');
        expect(type.length).toBeGreaterThan(0);
      }),
    );
  });
});
