import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GoalLoopError, type GoalLoopErrorCode } from '../../src/errors.js';
import { defineTool, toolError } from '../../src/ports/define-tool.js';

// The tool shape every capability's tools share: validated input, errors as data, outputs held to their schema.

const echo = (run: (input: { text: string; times?: number }) => Promise<unknown>) =>
  defineTool({
    name: 'echo',
    description: 'Repeats a text.',
    input: z.strictObject({ text: z.string().min(1), times: z.int().min(1).optional() }),
    output: z.strictObject({ text: z.string(), items: z.array(z.string()).readonly() }),
    run: run as (input: { text: string; times?: number }) => Promise<{ text: string; items: readonly string[] }>,
  });

const repeat = echo(async ({ text, times }) => ({ text, items: Array.from({ length: times ?? 1 }, () => text) }));

describe('defineTool', () => {
  it('publishes object JSON Schemas for input and output, the input refusing unknown fields', () => {
    expect(repeat.inputJsonSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['text'],
      additionalProperties: false,
      properties: { text: { type: 'string', minLength: 1 }, times: { type: 'integer', minimum: 1 } },
    });
    expect(repeat.outputJsonSchema).toMatchObject({ type: 'object', required: ['text', 'items'] });
  });

  it('runs with valid input and resolves to the output', async () => {
    expect(await repeat.handler({ text: 'a', times: 2 })).toEqual({
      isError: false,
      output: { text: 'a', items: ['a', 'a'] },
    });
  });

  it('resolves bad input to an invalid_input error naming every JSON path', async () => {
    const result = await repeat.handler({ text: '', times: 0, extra: true });
    expect(result.isError).toBe(true);
    if (!result.isError) return;
    expect(result.error.code).toBe('invalid_input');
    expect(result.error.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining([['text'], ['times'], ['extra']]),
    );
    expect(result.error.message).toContain('$.text:');
    expect(result.error.message).toContain('$.times:');
    expect(result.error.message).toContain('extra');
    expect((await repeat.handler(null)).isError).toBe(true);
  });

  it('names each unknown key at its own path with the key it most likely misspells, nested objects included', async () => {
    const nested = defineTool({
      name: 'nested',
      description: 'Takes a report.',
      input: z.strictObject({
        goal_type: z.string(),
        report: z.strictObject({ format: z.string() }).optional().describe('A report.'),
        items: z
          .array(z.strictObject({ item_id: z.string() }).readonly())
          .readonly()
          .optional(),
      }),
      output: z.strictObject({}),
      run: async () => ({}),
    });
    const result = await nested.handler({
      goal_type: 't',
      goalType: 't',
      report: { format: 'x', formt: 'y' },
      items: [{ item_id: 'a', itemId: 'b' }],
      zzz: 1,
    });
    if (!result.isError) throw new Error('expected a tool error');
    expect(result.error.issues).toEqual([
      { code: 'unrecognized_keys', path: ['report', 'formt'], message: 'unknown key `formt`; did you mean `format`?' },
      {
        code: 'unrecognized_keys',
        path: ['items', 0, 'itemId'],
        message: 'unknown key `itemId`; did you mean `item_id`?',
      },
      { code: 'unrecognized_keys', path: ['goalType'], message: 'unknown key `goalType`; did you mean `goal_type`?' },
      { code: 'unrecognized_keys', path: ['zzz'], message: 'unknown key `zzz`' },
    ]);
    expect(result.error.message).toContain('$.goalType: unknown key `goalType`; did you mean `goal_type`?');
    expect(result.error.message).not.toContain('Unrecognized key');
  });

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

  it('refuses a hostile input or output (a throwing getter, a revoked proxy) as a tool error, without rejecting', async () => {
    const hostile = Object.defineProperty({}, 'text', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    expect(await repeat.handler(hostile)).toMatchObject({ isError: true, error: { code: 'internal' } });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect((await repeat.handler(proxy)).isError).toBe(true);
    const hostileOutput = echo(async () => ({ text: 'a', items: hostile }));
    expect((await hostileOutput.handler({ text: 'a' })).isError).toBe(true);
  });

  it('never rejects, whatever the input, and errs exactly when the input schema refuses it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.anything(), fc.record({ text: fc.string(), times: fc.integer({ min: -2, max: 4 }) })),
        async (raw) => {
          const result = await repeat.handler(raw);
          expect(result.isError).toBe(!repeat.inputSchema.safeParse(raw).success);
        },
      ),
    );
  });

  it("hands run the host's call context: its signal, or none", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'probe',
      description: 'Records its context.',
      input: z.strictObject({}),
      output: z.strictObject({ aborted: z.boolean().nullable() }),
      run: async (_input, context) => {
        seen.push(context);
        return { aborted: context.signal?.aborted ?? null };
      },
    });
    const controller = new AbortController();
    controller.abort();
    expect(await tool.handler({}, { signal: controller.signal })).toEqual({
      isError: false,
      output: { aborted: true },
    });
    expect(await tool.handler({})).toEqual({ isError: false, output: { aborted: null } });
    expect(seen[0]).toEqual({ signal: controller.signal });
    expect(seen[1]).toEqual({});
    const bad = await tool.handler({}, { signal: 'stop' as unknown as AbortSignal });
    expect(bad).toMatchObject({ isError: true, error: { issues: [{ path: ['signal'] }] } });
    expect(seen).toHaveLength(2);
  });
});
