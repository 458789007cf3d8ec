// An MCP server over stdio, on the official SDK, serving the goal loop's tools (evaluate_goal, submit_verdict,
// loop_status) for the run directories under --root.
//
//   npx tsx examples/mcp-server/server.ts --root <project dir>
//
// Every path a tool receives (run_dir) is relative to the root. Standard output is the protocol; this file
// writes nothing else there.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createGoalLoopTools } from 'goal-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { registerTools } from './mcp-tools.js';

const { values } = parseArgs({ options: { root: { type: 'string' } }, strict: true });
if (values.root === undefined) {
  console.error('usage: tsx examples/mcp-server/server.ts --root <project dir>');
  process.exit(2);
}
const root = resolve(values.root);
const fs = createNodeFileSystem(root);
const commands = createExecaCommandRunner();

const server = new Server({ name: 'goal-loop', version: '1.0.0' }, { capabilities: { tools: {} } });
registerTools(server, [...createGoalLoopTools({ fs, commands })]);
await server.connect(new StdioServerTransport());
console.error(`goal-loop MCP server on stdio, root ${root}`);
