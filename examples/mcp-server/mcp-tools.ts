// The bridge between goal-loop's framework-neutral tools and the MCP SDK's low-level Server: tools/list answers
// with each tool's JSON Schemas, tools/call runs its handler and turns the ToolResult into a CallToolResult
// (output → structuredContent plus the same JSON as text; a tool error → isError with the error as JSON text).
// Each call's handler gets a signal that aborts when the client cancels the request, the connection closes, or
// the server stops, so the commands it runs are killed rather than left behind.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolResult } from 'goal-loop';

/** A tool as tools/list describes it. */
export function toMcpTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    annotations: { title: tool.title, ...tool.annotations },
    inputSchema: tool.inputJsonSchema,
    outputSchema: tool.outputJsonSchema,
  };
}

/** A tool result as tools/call returns it; an error carries no structuredContent (it would not match the output schema). */
export function toCallToolResult(result: ToolResult<unknown>): CallToolResult {
  if (result.isError) {
    return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: result.error }) }] };
  }
  const output = result.output as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
}

/** The calls a server is running, for a shutdown that waits for them. */
export interface ToolCalls {
  /** Resolves once every call in flight now has settled. */
  settled(): Promise<void>;
}

/**
 * Serves `tools` on `server`: tools/list and tools/call. An unknown tool name is a protocol error, as MCP says.
 * `signal` (the server's own) aborts every call in flight besides each request's own signal.
 */
export function registerTools(
  server: Server,
  tools: readonly Tool[],
  { signal }: { signal?: AbortSignal } = {},
): ToolCalls {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  if (byName.size !== tools.length) throw new Error('two tools share a name');
  const inFlight = new Set<Promise<unknown>>();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(toMcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const callSignal = signal === undefined ? extra.signal : AbortSignal.any([signal, extra.signal]);
    const call = tool.handler(request.params.arguments ?? {}, { signal: callSignal });
    inFlight.add(call);
    try {
      return toCallToolResult(await call);
    } finally {
      inFlight.delete(call);
    }
  });
  return { settled: async () => void (await Promise.allSettled([...inFlight])) };
}
