import type { z } from 'zod';

/**
 * Why a tool call failed, as a closed union a host can switch on:
 *
 * - `invalid_input`: the input does not match the tool's input schema (the issues name each JSON path), or a value
 *   in it was refused (an unknown criterion, a run directory outside the root);
 * - `not_found`: the input names something that does not exist (a session id);
 * - `invalid_state`: the call does not fit the current state (a finished session stepped again);
 * - `busy`: another process holds the run or the session (its lock);
 * - `invalid_contract`: a file the call must read is malformed;
 * - `io_error`: the filesystem failed;
 * - `internal`: an unexpected fault (the message says what).
 *
 * @public
 */
export type ToolErrorCode =
  | 'invalid_input'
  | 'not_found'
  | 'invalid_state'
  | 'busy'
  | 'invalid_contract'
  | 'io_error'
  | 'internal';

/**
 * One problem with a tool call: a machine-readable `code`, the JSON `path` of the offending value in the input
 * (`[]` for the input itself) and a human `message`. The same shape as the library's `Issue`.
 *
 * @public
 */
export interface ToolIssue {
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * A failed tool call as data: the code, one message (naming each offending JSON path, e.g.
 * `$.session_id: expected string`), and every issue found.
 *
 * @public
 */
export interface ToolError {
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly issues: readonly ToolIssue[];
}

/**
 * What a tool handler resolves to: the output, or a tool error. Maps one to one onto an MCP `CallToolResult`:
 * `isError` is its `isError`; `output` is its `structuredContent` (and, as JSON text, its `content`); `error` is
 * its `content` as JSON text.
 *
 * @public
 */
export type ToolResult<Output> =
  | { readonly isError: false; readonly output: Output }
  | { readonly isError: true; readonly error: ToolError };

/**
 * A JSON Schema document describing an object (a tool's input or output), generated from its zod schema
 * (draft 2020-12).
 *
 * @public
 */
export interface ToolJsonSchema {
  readonly type: 'object';
  readonly [keyword: string]: unknown;
}

/**
 * What a host passes a tool call besides its input. `signal` cancels the call's long work (the commands it runs)
 * when the host gives up on it: an MCP request cancelled by its client, the client gone, the server stopping. A
 * tool that does no long work ignores it.
 *
 * @example
 * ```ts
 * server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
 *   toCallToolResult(await tool.handler(request.params.arguments ?? {}, { signal: extra.signal })),
 * );
 * ```
 * @public
 */
export interface ToolCallContext {
  readonly signal?: AbortSignal;
}

/**
 * What a tool does to its world, as MCP's tool annotations say it (hints for a host deciding whether to ask a human
 * first; never a guarantee): `readOnlyHint` (it changes nothing), `destructiveHint` (it may overwrite or delete, not
 * only add), `idempotentHint` (the same call again changes nothing more), `openWorldHint` (it reaches beyond the
 * project: the network, other systems).
 *
 * @public
 */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * A framework-neutral tool for agent hosts: a name, a title and a description for the model, its annotations, the input and output as zod
 * schemas and as JSON Schemas, and a handler that validates its input and never rejects — bad input and refused
 * calls resolve to a {@link ToolResult} with `isError: true`. Any MCP server (or another host's tool registry)
 * registers it as it is.
 *
 * @example
 * ```ts
 * for (const tool of tools) registry.set(tool.name, tool);
 * const result = await registry.get('loop_status')!.handler({ run_dir: '.goal-loop/runs/r-42' });
 * if (result.isError) console.error(result.error.message);
 * else console.log(result.output);
 * ```
 * @public
 */
export interface Tool<Input = unknown, Output = unknown> {
  /** Unique among the tools of a host: lower snake case. */
  readonly name: string;
  /** A short human name for the tool (MCP's `title`). */
  readonly title: string;
  /** What the tool does, for the model that picks tools. */
  readonly description: string;
  /** What the tool does to its world (MCP's annotations). */
  readonly annotations: ToolAnnotations;
  readonly inputSchema: z.ZodType<Input>;
  readonly inputJsonSchema: ToolJsonSchema;
  readonly outputSchema: z.ZodType<Output>;
  readonly outputJsonSchema: ToolJsonSchema;
  /**
   * Validates `input` against {@link Tool.inputSchema}, runs the tool, and resolves to its result; never rejects.
   * `context.signal` cancels its long work (see {@link ToolCallContext}).
   */
  handler(input: unknown, context?: ToolCallContext): Promise<ToolResult<Output>>;
}
