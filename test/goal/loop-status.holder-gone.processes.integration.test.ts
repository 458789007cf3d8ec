import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createNodeProcessProbe } from '../../src/node/process-probe.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { PATHS, passed, RUN, readEvents } from './helpers.js';

// A loop in its own process, killed with SIGKILL mid-stage: what readLoopStatus tells before and after, on the real
// filesystem and real processes.

const source = (file: string) => pathToFileURL(resolve('src', file)).href;
// A loop whose first stage says it started (a marker file) and never returns.
const CHILD = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GoalLoop } from '${source('goal/goal-loop.ts')}';
import { createNodeFileSystem } from '${source('node.ts')}';
const [root] = process.argv.slice(2);
const runner = {
  run: () => {
    writeFileSync(join(root, 'in-stage'), '');
    setInterval(() => {}, 60_000);
    return new Promise(() => {});
  },
};
await new GoalLoop({ fs: createNodeFileSystem(root), runDir: '${RUN}', stages: ['s1', 's2'], runner }).run();
`;

async function appears(path: string): Promise<void> {
  const present = () =>
    access(path).then(
      () => true,
      () => false,
    );
  for (let tries = 0; tries < 2_000 && !(await present()); tries++) await new Promise((done) => setTimeout(done, 10));
}

describe('readLoopStatus after the loop process was killed, on the real filesystem', () => {
  let root: string;
  let child: ChildProcess | null = null;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-status-killed-'));
    await mkdir(join(root, RUN), { recursive: true });
    await writeFile(join(root, 'child.mts'), CHILD);
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    child = null;
    await rm(root, { recursive: true, force: true });
  });

  it('reads the holder alive while the loop runs and gone after SIGKILL; run() then takes over and resumes', async () => {
    const loop = spawn(process.execPath, ['--import', 'tsx', join(root, 'child.mts'), root], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child = loop;
    await appears(join(root, 'in-stage'));
    const fs = createNodeFileSystem(root);
    const running = await readLoopStatus({ fs, runDir: RUN });
    expect(running).toMatchObject({ phase: 'running_stages', stop: null, paused: null, issues: [] });
    expect(running.lock).toMatchObject({ pid: loop.pid, host: createNodeProcessProbe().host, holder: 'alive' });
    expect(running.lock?.heartbeatAgeMs).toBeLessThan(running.lock?.timeoutMs ?? 0);

    const exited = new Promise((done) => loop.once('exit', done));
    loop.kill('SIGKILL');
    await exited;
    const lockText = await readFile(join(root, PATHS.lock), 'utf8');
    const killed = await readLoopStatus({ fs, runDir: RUN });
    // Everything the loop persisted reads as a running loop; only the lock tells it is gone.
    expect(killed).toMatchObject({ phase: 'running_stages', stop: null, paused: null, issues: [] });
    expect(killed.lock).toMatchObject({ pid: loop.pid, holder: 'gone' });
    expect(await readFile(join(root, PATHS.lock), 'utf8')).toBe(lockText);

    const runner = createScriptedStageRunner({ s1: passed, s2: passed });
    const result = await new GoalLoop({ fs, runDir: RUN, stages: ['s1', 's2'], runner }).run();
    expect(result.stoppedOn).toBe('complete');
    const events = await readEvents(fs);
    expect(events.find((event) => event.type === 'lock_taken_over')).toMatchObject({ reason: 'holder_gone' });
    expect(events.some((event) => event.type === 'loop_resumed')).toBe(true);
    expect((await readLoopStatus({ fs, runDir: RUN })).lock).toBeNull();
  }, 30_000);
});
