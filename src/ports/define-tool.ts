import { z } from 'zod';
import { DEFAULT_MAX_TEXT_CHARS, inputBoundIssue } from './input-bounds.js';
import type {
  Tool,
  ToolAnnotations,
  ToolCallContext,
  ToolError,
  ToolErrorCode,
  ToolIssue,
  ToolJsonSchema,
  ToolResult,
} from './tool.js';
import { inputIssues, issuesOf } from './tool-issues.js';

/** A zod object schema (MCP wants an object at the root of a tool's input and output). @public */
export type ToolObjectSchema<T> = z.ZodType<T> & { readonly shape: Readonly<Record<string, z.ZodType>> };

/** What {@link defineTool} builds a tool from. @public */
export interface ToolDefinition<Input, Output> {
  readonly name: string;
  /** Default: the name. */
  readonly title?: string;
  readonly description: string;
  /** Default: MCP's own, the most cautious (not read-only, destructive, not idempotent, open world). */
  readonly annotations?: ToolAnnotations;
  /** The longest string the input may hold anywhere, checked before the schema reads it (default 65,536 characters). */
  readonly maxTextChars?: number;
  readonly input: ToolObjectSchema<Input>;
  readonly output: ToolObjectSchema<Output>;
  run(input: Input, context: ToolCallContext): Promise<Output | ToolError>;
}

// Thrown library errors by their code (GoalLoopError's codes, kept in step with GoalLoopErrorCode).
const THROWN_CODES: Readonly<Record<string, ToolErrorCode>> = {
  INVALID_OPTIONS: 'invalid_input',
  RUN_LOCKED: 'busy',
  INVALID_CONTRACT: 'invalid_contract',
  STATE_CORRUPT: 'invalid_contract',
  IO_ERROR: 'io_error',
  SESSION_NOT_FOUND: 'not_found',
  SESSION_ENDED: 'invalid_state',
};

// MCP's defaults for a tool that says nothing of itself.
const CAUTIOUS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

// Marks the values toolError() builds, so `run` can return one without it being mistaken for an output.
const TOOL_ERROR = Symbol('goal-loop.tool-error');

/** Builds a {@link Tool}. @public */
export function defineTool<Input, Output>(definition: ToolDefinition<Input, Output>): Tool<Input, Output> {
  const { name, input, output } = definition;
  return {
    name,
    title: definition.title ?? name,
    description: definition.description,
    annotations: { ...(definition.annotations ?? CAUTIOUS) },
    inputSchema: input,
    inputJsonSchema: jsonSchemaOf(input, 'input'),
    outputSchema: output,
    outputJsonSchema: jsonSchemaOf(output, 'output'),
    handler: async (raw: unknown, context?: ToolCallContext): Promise<ToolResult<Output>> => {
      try {
        const call = callContext(name, context);
        return isToolError(call) ? failure(call) : await handle(definition, raw, call);
      } catch (error) {
        // A hostile input or output (a throwing getter, a revoked proxy) is refused like any other fault.
        return failure(thrownError(name, error));
      }
    },
  };
}

// Validates the input, runs the tool, and holds its output to the output schema.
async function handle<Input, Output>(
  definition: ToolDefinition<Input, Output>,
  raw: unknown,
  context: ToolCallContext,
): Promise<ToolResult<Output>> {
  const { name, input, output } = definition;
  const bound = inputBoundIssue(raw, definition.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS);
  if (bound !== null) return failure(toolError('invalid_input', `${name}: input too large`, [bound]));
  const parsed = input.safeParse(raw);
  if (!parsed.success)
    return failure(toolError('invalid_input', `${name}: invalid input`, inputIssues(input, parsed.error)));
  const result = await definition.run(parsed.data, context);
  if (isToolError(result)) return failure(result);
  const checked = output.safeParse(result);
  if (!checked.success) {
    const issues = issuesOf(checked.error);
    return failure(toolError('internal', `${name} produced an output that does not match its schema`, issues));
  }
  return { isError: false, output: checked.data };
}

// The host's call context as `run` gets it (always an object), or a tool error when it is not one a host can mean:
// a signal that is not an AbortSignal would never cancel anything.
function callContext(name: string, context: ToolCallContext | undefined): ToolCallContext | ToolError {
  if (context === undefined || context === null) return {};
  const signal = typeof context === 'object' ? context.signal : undefined;
  if (typeof context === 'object' && (signal === undefined || signal instanceof AbortSignal))
    return signal === undefined ? {} : { signal };
  const issue = { code: 'invalid_context', path: ['signal'], message: 'context.signal must be an AbortSignal' };
  return toolError('internal', `${name}: the host passed an unusable call context`, [issue]);
}

/** A tool error for `run` to return: the code, a message (each issue's JSON path and message are appended), and the issues, if any. @public */
export function toolError(code: ToolErrorCode, message: string, issues: readonly ToolIssue[] = []): ToolError {
  const detail = issues.map((issue) => `${jsonPath(issue.path)}: ${issue.message}`).join('; ');
  const error = { code, message: detail === '' ? message : `${message}: ${detail}`, issues };
  Object.defineProperty(error, TOOL_ERROR, { value: true });
  return error;
}

// True for the values toolError() built.
function isToolError(value: unknown): value is ToolError {
  return typeof value === 'object' && value !== null && TOOL_ERROR in value;
}

// The plain tool error result (without the marker, so it serialises as data).
function failure(error: ToolError): { readonly isError: true; readonly error: ToolError } {
  return { isError: true, error: { code: error.code, message: error.message, issues: error.issues } };
}

// A thrown value as a tool error: a library error keeps its message and issues under its mapped code.
function thrownError(name: string, error: unknown): ToolError {
  const thrown = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof thrown.code === 'string' ? THROWN_CODES[thrown.code] : undefined;
  const issues = Array.isArray(thrown.issues) ? (thrown.issues as ToolIssue[]) : [];
  if (code === undefined) return toolError('internal', `${name} failed: ${message}`);
  return { ...toolError(code, message), issues };
}

// `['a', 0, 'b c']` → `$.a[0]["b c"]`.
function jsonPath(path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (out, key) =>
      out +
      (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`),
    '$',
  );
}

// The JSON Schema of a tool's input or output (an object schema, so `type` is `object`).
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): ToolJsonSchema {
  return z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as ToolJsonSchema;
}
