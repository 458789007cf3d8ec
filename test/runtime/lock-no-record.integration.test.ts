import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { seedStages } from '../critics/helpers.js';
import { simulate, simulatedOptions, startInput } from '../fix-loop/helpers.js';

// A kill between a lock's exclusive create and the write of its record leaves an empty or torn lock file: no loop
// ever held it, so the next opener of each capability takes it over at once, on the real filesystem. And a
// filesystem that refuses writes is named for what it is (EROFS, ENOSPC), not ENOENT.

const LEFT_BY_A_KILL = [
  ['empty', ''],
  ['torn', '{"owner":"goal-loop:4242:abc","token":"5e0'],
] as const;

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'lock-no-record-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function leave(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

const goalLoop = (fsRoot: string) =>
  new GoalLoop({
    fs: createNodeFileSystem(fsRoot),
    runDir: 'runs/r',
    stages: ['build'],
    runner: createScriptedStageRunner({ build: { status: 'passed' } }),
    goal: { schema_version: 1, criteria: [{ id: 'built', kind: 'file_exists', path: 'runs/r/loop-state.json' }] },
  });

describe.each(LEFT_BY_A_KILL)('an %s lock file left by a kill is taken over at once', (_, text) => {
  it('by the goal loop', async () => {
    await leave('runs/r/loop.lock', text);
    expect((await goalLoop(root).run()).stoppedOn).toBe('complete');
    const events = (await readFile(join(root, 'runs/r/events.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(events.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ type: 'lock_taken_over', reason: 'no_record' }),
    );
  });

  it('by the staged critics', async () => {
    await leave('critics/feat-1/execution.lock', text);
    const pipeline = new StagedPipeline({ fs: createNodeFileSystem(root), dir: 'critics', stages: seedStages([]) });
    expect(await pipeline.run({ executionId: 'feat-1', spec: { feature: 'search' } })).toMatchObject({
      status: 'completed',
    });
  });

  it('by the fix loop', async () => {
    await leave('ws/package.json', '{"name":"ws"}\n');
    const fs = createNodeFileSystem(root);
    const fixer = new FixLoopOrchestrator(simulatedOptions(simulate(['a']), fs, 'sessions'));
    const { sessionId } = await fixer.start(startInput({ sessionId: 's-1' }));
    await leave(`sessions/${sessionId}/session.lock`, text);
    expect(await fixer.step(sessionId)).toMatchObject({ sessionId });
  });
});

// A tmpfs mounted for the test (the suite runs as root); skipped where mounting is not allowed.
function mounted(options: string): string | null {
  const point = join(root, `mnt-${options.replace(/\W/g, '')}`);
  try {
    execFileSync('mkdir', ['-p', point]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', point], { stdio: 'ignore' });
    return point;
  } catch {
    return null;
  }
}

describe('a filesystem that refuses writes is named', () => {
  const points: string[] = [];
  afterEach(() => {
    for (const point of points.splice(0)) execFileSync('umount', [point]);
  });

  it('EROFS on a read-only root, where Node alone says ENOENT', async (context) => {
    const point = mounted('ro,size=64k');
    if (point === null) return context.skip();
    points.push(point);
    await expect(goalLoop(point).run()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: 'create "runs/r/loop.lock" failed: EROFS',
    });
  });

  it('ENOSPC on a full one', async (context) => {
    const point = mounted('size=64k');
    if (point === null) return context.skip();
    points.push(point);
    await writeFile(join(point, 'fill'), Buffer.alloc(64 * 1024)).catch(() => undefined);
    await expect(goalLoop(point).run()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringMatching(/failed: ENOSPC$/),
    });
  });
});
