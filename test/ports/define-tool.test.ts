import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/ports/define-tool.js';
import { echo, repeat } from './tools.js';

// The tool shape every capability's tools share: validated input, errors as data, outputs held to their schema. Here:
// the published schemas, the input a handler takes or refuses, and the call context it hands on.

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
