import type { z } from 'zod';

/** Why a tool call failed, as a closed union a host can switch on: @public */
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
 * (`[]` for the input itself) and a human `message`. @public
 */
export interface ToolIssue {
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * A failed tool call as data: the code, one message naming each offending JSON path
 * (e.g. `$.session_id: expected string`), and every issue found. @public
 */
export interface ToolError {
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly issues: readonly ToolIssue[];
}

/** What a tool handler resolves to: the output, or a tool error. @public */
export type ToolResult<Output> =
  | { readonly isError: false; readonly output: Output }
  | { readonly isError: true; readonly error: ToolError };

/** A JSON Schema document describing an object (a tool's input or output), generated from its zod schema (draft 2020-12). @public */
export interface ToolJsonSchema {
  readonly type: 'object';
  readonly [keyword: string]: unknown;
}

/** What a host passes a tool call besides its input. @public */
export interface ToolCallContext {
  readonly signal?: AbortSignal;
}

/**
 * What a tool does to its world, as MCP's tool annotations say it (hints for a host deciding whether to ask a human first; never a guarantee). @public
 */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** A framework-neutral tool for agent hosts. @public */
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
  /** Validates `input` against {@link Tool.inputSchema}, runs the tool, and resolves to its result. */
  handler(input: unknown, context?: ToolCallContext): Promise<ToolResult<Output>>;
}
