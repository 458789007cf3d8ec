// The bridge between goal-loop's framework-neutral tools and the MCP SDK's low-level Server: tools/list answers
// with each tool's JSON Schemas, tools/call runs its handler and turns the ToolResult into a CallToolResult
// (output → structuredContent plus the same JSON as text; a tool error → isError with the error as JSON text).
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
    description: tool.description,
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

/** Serves `tools` on `server`: tools/list and tools/call. An unknown tool name is a protocol error, as MCP says. */
export function registerTools(server: Server, tools: readonly Tool[]): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  if (byName.size !== tools.length) throw new Error('two tools share a name');
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(toMcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return toCallToolResult(await tool.handler(request.params.arguments ?? {}));
  });
}
