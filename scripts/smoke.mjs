// Smoke test of the built ESM entries through the package's own exports map.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitCodeFor, GoalLoop, parseGoal, systemClock } from 'goal-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { createMemoryFileSystem, createScriptedStageRunner, fileSystemConformanceCases } from 'goal-loop/testing';

assert.equal(exitCodeFor({ stoppedOn: 'dry_run' }), 0);
assert.equal(parseGoal({ schema_version: 1 }).success, true);
assert.ok(fileSystemConformanceCases().length > 10);
assert.equal(typeof systemClock.now(), 'number');

const dir = await mkdtemp(join(tmpdir(), 'goal-loop-smoke-'));
try {
  const loop = new GoalLoop({
    fs: createNodeFileSystem(dir),
    runDir: 'runs/r',
    stages: ['build'],
    runner: createScriptedStageRunner({ build: { status: 'passed' } }),
    commands: createExecaCommandRunner(),
    goal: { schema_version: 1, criteria: [{ id: 'cmd', kind: 'command', command: 'node -e "0"' }] },
  });
  const result = await loop.run();
  assert.equal(result.stoppedOn, 'complete');
  const memory = createMemoryFileSystem();
  await memory.writeText('x', 'y');
  assert.equal(await memory.readText('x'), 'y');
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log('ESM entries: ok');
