import { z } from 'zod';
import { defineTool } from '../../src/ports/define-tool.js';
import type { ToolResult } from '../../src/ports/tool.js';

// Tools in tests: a tool made with defineTool to test it on, and reading a tool handler's result (the output it must
// have, or the tool error it must be).

/** A tool `echo` whose output is what `run` resolves to (held to `{ text, items }` whatever it is). */
export const echo = (run: (input: { text: string; times?: number }) => Promise<unknown>) =>
  defineTool({
    name: 'echo',
    description: 'Repeats a text.',
    input: z.strictObject({ text: z.string().min(1), times: z.int().min(1).optional() }),
    output: z.strictObject({ text: z.string(), items: z.array(z.string()).readonly() }),
    run: run as (input: { text: string; times?: number }) => Promise<{ text: string; items: readonly string[] }>,
  });

/** The echo tool that repeats its text `times` times (once by default). */
export const repeat = echo(async ({ text, times }) => ({
  text,
  items: Array.from({ length: times ?? 1 }, () => text),
}));

/** The output of a result that must have succeeded. */
export function ok<T>(result: ToolResult<T>): T {
  if (result.isError) throw new Error(`unexpected tool error: ${result.error.message}`);
  return result.output;
}

/** The error of a result that must have failed. */
export function failed<T>(result: ToolResult<T>) {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result.output)}`);
  return result.error;
}
