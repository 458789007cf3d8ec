import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, call, root, server, useMcpServer } from './mcp-session.js';

// A step cancelled by the SDK client (its request's AbortSignal, a notifications/cancelled to the server) stops the
// command it runs within a second, rather than at the command's own timeout.

// Writes its process id, then waits a minute: a test run that hangs.
const HANGING = `node -e "require('fs').writeFileSync('pid', String(process.pid)); setTimeout(() => {}, 60000)"`;

useMcpServer(
  async (project) => {
    await mkdir(join(project, 'pkg'));
    await writeFile(join(project, 'pkg', 'package.json'), '{ "name": "pkg" }\n');
  },
  ['--allow-command', HANGING],
);

// True while the process runs: alive and not a zombie left for a parent that no longer reaps it.
function running(pid: number): boolean {
  if (!alive(pid)) return false;
  const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return state !== '' && !state.startsWith('Z');
}

// Resolves with the id the hanging command wrote, once it has.
async function pidWritten(path: string): Promise<number> {
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text !== '') return Number(text);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a cancelled step', () => {
  it('stops its command within a second', async () => {
    const started = await call('start_feedback_loop', {
      goal: 'the tests pass',
      goal_type: 'tests',
      workspace: 'pkg',
      test_command: HANGING,
    });
    const session_id = started.output?.session_id as string;
    expect((await call('step_feedback_loop', { session_id })).output).toMatchObject({ action_taken: 'probe' });
    const cancel = new AbortController();
    const measuring = server.client
      .callTool({ name: 'step_feedback_loop', arguments: { session_id } }, undefined, { signal: cancel.signal })
      .catch((error: unknown) => error);
    const pid = await pidWritten(join(root, 'pkg', 'pid'));
    expect(alive(pid)).toBe(true);
    cancel.abort();
    await measuring;
    const deadline = Date.now() + 1_000;
    while (running(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running(pid)).toBe(false);
    // The session stays resumable: the cut-off step is recorded as interrupted on the next call.
    const view = await call('get_feedback_loop', { session_id });
    expect(view.output?.status).toBe('running');
  }, 60_000);
});
