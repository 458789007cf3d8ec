// An MCP server over stdio, on the official SDK, serving goal-loop's seven tools for the project under --root:
// the goal loop's (evaluate_goal, submit_verdict, loop_status) for its run directories, and the fix loop's
// (start_feedback_loop, step_feedback_loop, run_feedback_loop, get_feedback_loop) for workspaces inside it.
//
//   npx tsx examples/mcp-server/server.ts --root <project dir> [--max-wall-seconds <n>]
//
// Every path a tool receives (run_dir, workspace) is relative to the root; fix sessions live in
// <root>/.goal-loop/fix-sessions. The fix loop's candidate source is the rule table of examples/fix-loop (unified
// diffs for its slugify package); a real host plugs its agent in there. Standard output is the protocol; this
// file writes nothing else there.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createGoalLoopTools } from 'goal-loop';
import { createFixLoopTools, createGitPatchApplier, FixLoopOrchestrator } from 'goal-loop/fix-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { createRuleCandidateSource } from '../fix-loop/rule-candidates.js';
import { registerTools } from './mcp-tools.js';

const { values } = parseArgs({
  options: { root: { type: 'string' }, 'max-wall-seconds': { type: 'string' } },
  strict: true,
});
if (values.root === undefined) {
  console.error('usage: tsx examples/mcp-server/server.ts --root <project dir> [--max-wall-seconds <n>]');
  process.exit(2);
}
const root = resolve(values.root);
const fs = createNodeFileSystem(root);
const commands = createExecaCommandRunner();
const maxWall = values['max-wall-seconds'];

const fixer = new FixLoopOrchestrator({
  fs,
  dir: '.goal-loop/fix-sessions',
  commands,
  candidates: createRuleCandidateSource(),
  applier: createGitPatchApplier({ commands }),
});

const server = new Server({ name: 'goal-loop', version: '1.0.0' }, { capabilities: { tools: {} } });
registerTools(server, [
  ...createGoalLoopTools({ fs, commands }),
  ...createFixLoopTools(fixer, maxWall === undefined ? {} : { maxWallSeconds: Number(maxWall) }),
]);
await server.connect(new StdioServerTransport());
console.error(`goal-loop MCP server on stdio, root ${root}`);
