// Starts the example server as a child process and connects the SDK's own Client to it over stdio.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
// The repository root, whose tsconfig maps the goal-loop imports to the sources.
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

/** A client connected to a server child process; `close()` ends the session and the child. */
export interface ServerConnection {
  readonly client: Client;
  /** The child's process id. */
  readonly pid: number | undefined;
  /** What the child wrote to standard error so far (its log lines). */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Starts `server.ts --root <root>` under tsx (node --import tsx) with `flags` (default: allow any command) and
 * connects a Client to it.
 */
export async function connectToServer(
  root: string,
  flags: readonly string[] = ['--allow-any-command'],
): Promise<ServerConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', SERVER, '--root', root, ...flags],
    cwd: REPOSITORY,
    env: getDefaultEnvironment(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'goal-loop-example-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid ?? undefined, stderr: () => stderr, close: () => client.close() };
}
