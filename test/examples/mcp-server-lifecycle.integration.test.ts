import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToServer } from '../../examples/mcp-server/client.js';
import { alive } from './mcp-session.js';

// How the MCP server example stops, as a child process driven by the SDK's Client: a client that goes away in the
// middle of a fix run leaves no command running and no server behind; a message over the transport's limit is
// logged before the server stops; a bad command line is a usage line and exit 2.

const SERVER = fileURLToPath(new URL('../../examples/mcp-server/server.ts', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-mcp-life-'));
  await mkdir(join(root, 'ws'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// The ids of the processes whose command line holds `marker`.
function processesWith(marker: string): number[] {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.includes(marker)).map((line) => Number.parseInt(line.trim(), 10));
}

// Polls `condition` every 50 ms, at most `tries` times.
async function until(condition: () => boolean, tries = 200): Promise<boolean> {
  for (let tried = 0; tried < tries; tried += 1) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

// Runs the server with `args`; its exit code and standard error.
function runServer(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, ...args], { cwd: REPOSITORY });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('the MCP server example stopping', () => {
  it('kills the test command of a run in flight and exits when the client closes', async () => {
    const marker = `goal-loop-mcp-life-${process.pid}-${Date.now()}`;
    const connection = await connectToServer(root);
    const pid = connection.pid ?? 0;
    const start = await connection.client.callTool({
      name: 'start_feedback_loop',
      arguments: { goal: 'g', goal_type: 'tests_pass', workspace: 'ws', test_command: `sleep 60 # ${marker}` },
    });
    const sessionId = (start.structuredContent as { session_id: string }).session_id;
    const running = connection.client
      .callTool({ name: 'run_feedback_loop', arguments: { session_id: sessionId } }, undefined, { timeout: 120_000 })
      .catch((error: unknown) => error);
    expect(await until(() => processesWith(marker).length > 0)).toBe(true);
    await connection.close();
    expect(await running).toBeInstanceOf(Error);
    expect(await until(() => !alive(pid))).toBe(true);
    expect(await until(() => processesWith(marker).length === 0)).toBe(true);
    expect(connection.stderr()).toContain('goal-loop MCP server stopping: standard input closed');
  }, 60_000);

  it('logs why it stops when a message exceeds the transport limit', async () => {
    const connection = await connectToServer(root);
    const pid = connection.pid ?? 0;
    const huge = 'x'.repeat(11 * 1024 * 1024);
    const answer = await connection.client
      .callTool({ name: 'loop_status', arguments: { run_dir: huge } })
      .catch((error: unknown) => error);
    expect(answer).toBeInstanceOf(Error);
    expect(await until(() => !alive(pid))).toBe(true);
    expect(connection.stderr()).toMatch(/transport error: ReadBuffer exceeded maximum size/);
    expect(connection.stderr()).toContain('goal-loop MCP server stopping: the transport closed');
    await connection.close();
  }, 60_000);

  it.each([
    [['--root', '/nonexistent-goal-loop-root'], 'is not a directory'],
    [['--root', '.', '--max-wall-seconds', 'soon'], '--max-wall-seconds must be a positive number'],
    [['--root', '.', '--verbose'], "Unknown option '--verbose'"],
  ])(
    'answers the command line %j with a usage line and exit 2, no stack trace',
    async (args, problem) => {
      const { code, stderr } = await runServer(args);
      expect(code).toBe(2);
      expect(stderr).toContain(problem);
      expect(stderr).toContain('usage: tsx examples/mcp-server/server.ts --root <project dir>');
      expect(stderr).not.toMatch(/^\s+at /m);
    },
    30_000,
  );
});
