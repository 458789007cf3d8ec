import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { PATHS, RUN, readEvents } from './helpers.js';

// Two real processes on one run, the lost-lock race of a stage cost: process A's stage blocks its event loop (so no
// heartbeat runs) until process B, having taken the stale lock over, runs the same stage; A's stage then returns its
// $5. A's commit is refused (RUN_LOCKED) and the $5 goes to spend-pending/; B, whose stage ($1) returns once A has
// exited, folds it in: the run's spend is the $6 really spent.

const source = (file: string) => pathToFileURL(resolve('src', file)).href;
const CHILD = `
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GoalLoop } from '${source('goal/goal-loop.ts')}';
import { createNodeFileSystem } from '${source('node.ts')}';
const [root, role] = process.argv.slice(2);
const marker = (name) => join(root, name);
const until = async (name) => {
  for (let i = 0; i < 3000 && !existsSync(marker(name)); i++) await new Promise((r) => setTimeout(r, 10));
};
const runner = {
  async run() {
    if (role === 'a') {
      writeFileSync(marker('a-busy'), '');
      // Synchronous work: the event loop (and the heartbeat) stands still until B runs the stage.
      const end = Date.now() + 30_000;
      while (!existsSync(marker('b-in-stage')) && Date.now() < end);
      return { status: 'passed', costUsd: 5 };
    }
    writeFileSync(marker('b-in-stage'), '');
    await until('a-done');
    return { status: 'passed', costUsd: 1 };
  },
};
const loop = new GoalLoop({ fs: createNodeFileSystem(root), runDir: '${RUN}', stages: ['s1'], runner, lockTimeoutMs: 300 });
for (let attempt = 0; ; attempt++) {
  try {
    const result = await loop.run();
    console.log(JSON.stringify({ role, stoppedOn: result.stoppedOn, spentUsd: result.spentUsd }));
    break;
  } catch (error) {
    // B tries again until A's heartbeat is stale; A reports how its run ended.
    if (role === 'b' && error.code === 'RUN_LOCKED' && attempt < 200) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    console.log(JSON.stringify({ role, code: error.code, message: error.message }));
    break;
  }
}
`;

interface ChildReport {
  readonly role: string;
  readonly stoppedOn?: string;
  readonly spentUsd?: number;
  readonly code?: string;
}

const start = (root: string, role: string) =>
  new Promise<ChildReport>((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'child.mts'), root, role], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', () => done(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as ChildReport));
  });

async function appears(path: string): Promise<void> {
  for (;;) {
    if (
      await access(path).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((done) => setTimeout(done, 10));
  }
}

describe('a stage cost whose commit a lost lock refused, between two real processes', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-lost-lock-cost-'));
    await mkdir(join(root, RUN), { recursive: true });
    await writeFile(join(root, 'child.mts'), CHILD);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('is parked by the loop that lost the lock and folded once by the one that holds it: 6 of a real 6', async () => {
    const a = start(root, 'a');
    await appears(join(root, 'a-busy'));
    const b = start(root, 'b');
    expect(await a).toMatchObject({ role: 'a', code: 'RUN_LOCKED' });
    const pending = join(root, RUN, 'spend-pending');
    const parked = (await readdir(pending)).filter((name) => name.endsWith('.json'));
    expect(parked).toHaveLength(1);
    expect(JSON.parse(await readFile(join(pending, parked[0] ?? ''), 'utf8'))).toMatchObject({
      stage: 's1',
      iteration: 1,
      cost_usd: 5,
    });

    await writeFile(join(root, 'a-done'), '');
    expect(await b).toEqual({ role: 'b', stoppedOn: 'complete', spentUsd: 6 });
    expect(JSON.parse(await readFile(join(root, PATHS.metrics), 'utf8'))).toEqual({ cumulative_cost_usd: 6 });
    expect(await readdir(pending)).toEqual([]);
    const events = await readEvents(createNodeFileSystem(root));
    expect(events.filter((event) => event.type === 'lock_taken_over')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'late_cost_recorded')).toEqual([
      expect.objectContaining({ stage: 's1', stage_iteration: 1, cost_usd: 5 }),
    ]);
  }, 60_000);
});
