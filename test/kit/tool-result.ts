import type { ToolResult } from '../../src/ports/tool.js';

// Reading a tool handler's result in a test: the output it must have, or the tool error it must be.

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
