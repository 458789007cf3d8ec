// An MCP server over stdio, on the official SDK, serving goal-loop's seven tools for the project under --root:
// the goal loop's (evaluate_goal, submit_verdict, loop_status) for its run directories, and the fix loop's
// (start_feedback_loop, step_feedback_loop, run_feedback_loop, get_feedback_loop) for workspaces inside it.
//
//   npx tsx examples/mcp-server/server.ts --root <project dir> [--max-wall-seconds <n>] [--candidates agent|rules]
//     (--allow-command <command>... | --allow-commands-file <file.json> | --allow-any-command)
//
// Least privilege: start_feedback_loop runs only the build and test commands the server was started with
// (--allow-command, repeatable; or a JSON file mapping each workspace to its commands); --allow-any-command lets a
// client run any shell command, and is for a trusted client only. With --candidates agent the calling agent
// proposes the fixes (step_feedback_loop's candidates); with rules (the default) the example's rule table does.
//
// Every path a tool receives (run_dir, workspace) is relative to the root; fix sessions live in
// <root>/.goal-loop/fix-sessions. The rules candidate source is the table of examples/fix-loop (unified diffs for
// its slugify package). Standard output is the protocol; this
// file writes nothing else there.
//
// It stops on SIGTERM, SIGINT, standard input closing or the transport closing (an oversized message closes it
// too): every call in flight is aborted (its commands killed, its lock released) and awaited before the process
// exits, and the reason is one line on standard error. Bad arguments: a usage line, exit 2.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createGoalLoopTools, isGoalLoopError, type Tool } from 'goal-loop';
import {
  type AllowedCommands,
  createFixLoopTools,
  createGitPatchApplier,
  FixLoopOrchestrator,
} from 'goal-loop/fix-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { createRuleCandidateSource } from '../fix-loop/rule-candidates.js';
import { registerTools } from './mcp-tools.js';

const USAGE =
  'usage: tsx examples/mcp-server/server.ts --root <project dir> [--max-wall-seconds <n>] [--candidates agent|rules] ' +
  '(--allow-command <command>... | --allow-commands-file <file.json> | --allow-any-command)';

// A bad command line: what is wrong and the usage, on standard error; exit 2.
function usageError(problem: string): never {
  console.error(`goal-loop MCP server: ${problem}\n${USAGE}`);
  process.exit(2);
}

// The command line, checked: an existing root directory, a positive number of seconds, where fixes come from, and
// the commands clients may run.
function parseCommandLine(): {
  root: string;
  maxWallSeconds: number | undefined;
  candidates: 'agent' | 'rules';
  allowed: AllowedCommands;
} {
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse());
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.root === undefined) return usageError('--root is required');
  const root = resolve(values.root);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return usageError(`--root ${root} is not a directory`);
  const wall = values['max-wall-seconds'];
  const maxWallSeconds = wall === undefined ? undefined : Number(wall);
  if (maxWallSeconds !== undefined && !(Number.isFinite(maxWallSeconds) && maxWallSeconds > 0))
    return usageError(`--max-wall-seconds must be a positive number of seconds, got "${wall}"`);
  const candidates = values.candidates ?? 'rules';
  if (candidates !== 'agent' && candidates !== 'rules')
    return usageError(`--candidates must be agent or rules, got "${candidates}"`);
  return { root, maxWallSeconds, candidates, allowed: allowedCommands(values) };
}

function parse() {
  return parseArgs({
    options: {
      root: { type: 'string' },
      'max-wall-seconds': { type: 'string' },
      candidates: { type: 'string' },
      'allow-command': { type: 'string', multiple: true },
      'allow-commands-file': { type: 'string' },
      'allow-any-command': { type: 'boolean' },
    },
    strict: true,
  });
}

// The commands clients may run: exactly one of the three ways of saying so.
function allowedCommands(values: ReturnType<typeof parse>['values']): AllowedCommands {
  const listed = values['allow-command'] ?? [];
  const file = values['allow-commands-file'];
  const any = values['allow-any-command'] === true;
  if ([listed.length > 0, file !== undefined, any].filter(Boolean).length !== 1)
    return usageError('give exactly one of --allow-command, --allow-commands-file, --allow-any-command');
  if (any) return 'any';
  if (file === undefined) return listed;
  let map: unknown;
  try {
    map = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return usageError(`--allow-commands-file ${file}: ${(error as Error).message}`);
  }
  const valid =
    typeof map === 'object' &&
    map !== null &&
    !Array.isArray(map) &&
    Object.values(map).every((list) => Array.isArray(list) && list.every((command) => typeof command === 'string'));
  if (!valid) return usageError(`--allow-commands-file ${file} must map each workspace to a list of commands`);
  return map as Record<string, string[]>;
}

const { root, maxWallSeconds, candidates, allowed } = parseCommandLine();
const fs = createNodeFileSystem(root);
const commands = createExecaCommandRunner();
// Aborted when the server stops: every call in flight, and the fix loop's step in progress, end with it.
const stopping = new AbortController();

let tools: Tool[];
try {
  const fixer = new FixLoopOrchestrator({
    fs,
    dir: '.goal-loop/fix-sessions',
    commands,
    // With agent candidates the source is never asked: every fix comes with the step that applies it.
    candidates: candidates === 'agent' ? { propose: () => [] } : createRuleCandidateSource(),
    applier: createGitPatchApplier({ commands }),
    signal: stopping.signal,
  });
  tools = [
    ...createGoalLoopTools({ fs, commands }),
    ...createFixLoopTools(fixer, {
      ...(maxWallSeconds === undefined ? {} : { maxWallSeconds }),
      candidates: candidates === 'agent' ? 'caller' : 'source',
      allowedCommands: allowed,
    }),
  ];
} catch (error) {
  usageError(isGoalLoopError(error) ? `${error.code}: ${error.message}` : String(error));
}

const server = new Server({ name: 'goal-loop', version: '1.0.0' }, { capabilities: { tools: {} } });
const calls = registerTools(server, tools, { signal: stopping.signal });

// Stops once: aborts the calls in flight, waits for them to settle (their commands killed, locks released), then
// exits. A second signal while stopping changes nothing.
async function stop(reason: string, code: number): Promise<void> {
  if (stopping.signal.aborted) return;
  console.error(`goal-loop MCP server stopping: ${reason}`);
  stopping.abort(new Error(`the MCP server is stopping: ${reason}`));
  await calls.settled();
  await server.close().catch(() => undefined);
  process.exit(code);
}

server.onerror = (error) => console.error(`goal-loop MCP server transport error: ${error.message}`);
server.onclose = () => void stop('the transport closed', 0);
process.on('SIGTERM', () => void stop('SIGTERM', 143));
process.on('SIGINT', () => void stop('SIGINT', 130));
// The SDK's stdio transport does not watch for the end of its input; a client that closes it is gone.
process.stdin.on('end', () => void stop('standard input closed', 0));

await server.connect(new StdioServerTransport());
console.error(`goal-loop MCP server on stdio, root ${root}`);
