import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';
import { connectToServer, type ServerConnection } from '../../examples/mcp-server/client.js';

// The MCP server example as a child process, driven by the SDK's own Client over stdio: each tool called the way an
// agent host calls it. The Client itself checks every structuredContent against the tool's output schema.

/** The project directory the server serves (set before the tests of a file that calls {@link useMcpServer}). */
export let root: string;
/** The connection to the server child (set with {@link root}). */
export let server: ServerConnection;

/**
 * Before the calling file's tests: a temp project prepared by `prepare`, and a server on it started with `flags`
 * (default: any command allowed); after: both gone.
 */
export function useMcpServer(prepare: (root: string) => Promise<void>, flags?: readonly string[]): void {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-mcp-test-'));
    await prepare(root);
    server = await connectToServer(root, flags);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });
}

/** True while a process with this id runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Calls a tool; the structured output of a success, or the parsed error of a tool error. A fix run takes a few
// test runs, so the request may take longer than the Client's default minute.
// biome-ignore lint/suspicious/noExplicitAny: structured outputs are read field by field, checked by toMatchObject.
type Output = Record<string, any>;
/** Calls the tool `name` with `args` on {@link server}: whether it is a tool error, its structured output, its JSON text. */
export async function call(name: string, args: Record<string, unknown>) {
  const result = (await server.client.callTool({ name, arguments: args }, undefined, {
    timeout: 180_000,
  })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return {
    isError: result.isError === true,
    output: result.structuredContent as Output | undefined,
    json: JSON.parse(text) as unknown,
  };
}
