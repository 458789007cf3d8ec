// Starts the MCP server example, lists its tools through the SDK's Client, reads one run's status, and stops it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectToServer } from './client.js';

const root = await mkdtemp(join(tmpdir(), 'goal-loop-mcp-check-'));
const connection = await connectToServer(root);
try {
  const { tools } = await connection.client.listTools();
  console.log(`goal-loop MCP server: ${tools.length} tools`);
  for (const tool of tools) {
    const fields = Object.keys((tool.inputSchema.properties ?? {}) as object).join(', ');
    console.log(`  ${tool.name.padEnd(20)} (${fields})`);
  }
  const status = await connection.client.callTool({ name: 'loop_status', arguments: { run_dir: 'runs/none' } });
  console.log(
    `loop_status on an empty run: ${JSON.stringify((status.structuredContent as { state?: string } | undefined)?.state)}`,
  );
  if (tools.length !== 7 || status.isError) throw new Error('the server did not answer as expected');
} finally {
  await connection.close();
  await rm(root, { recursive: true, force: true });
}
