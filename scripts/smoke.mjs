// Smoke test of the built ESM entries through the package's own exports map.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitCodeFor, GoalLoop, parseGoal, systemClock } from 'goal-loop';
import { DECISION_PRECEDENCE, feedbackReportSchema, goalSchema, MAX_ATTEMPTS_CAP } from 'goal-loop/contracts';
import { createGitPatchApplier, FixLoopOrchestrator } from 'goal-loop/fix-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { createPostgresFileSystem } from 'goal-loop/postgres';
import { createMemoryFileSystem, createScriptedStageRunner, fileSystemConformanceCases } from 'goal-loop/testing';

assert.equal(exitCodeFor({ stoppedOn: 'dry_run' }), 0);
assert.equal(parseGoal({ schema_version: 1 }).success, true);
assert.ok(fileSystemConformanceCases().length > 10);
assert.equal(typeof systemClock.now(), 'number');
assert.equal(typeof FixLoopOrchestrator, 'function');
assert.equal(MAX_ATTEMPTS_CAP, 50);
assert.equal(goalSchema.safeParse({ schema_version: 1 }).success, true);
assert.equal(feedbackReportSchema.safeParse({}).success, false);
assert.ok(DECISION_PRECEDENCE.last.length > 0);

const goalJsonSchema = JSON.parse(
  await readFile(fileURLToPath(import.meta.resolve('goal-loop/schemas/goal.schema.json')), 'utf8'),
);
const dir = await mkdtemp(join(tmpdir(), 'goal-loop-smoke-'));
try {
  await mkdir(join(dir, 'runs/r'), { recursive: true });
  await writeFile(join(dir, 'runs/r/a-goal.json'), JSON.stringify({ schema_version: 1 }));
  const loop = new GoalLoop({
    fs: createNodeFileSystem(dir),
    runDir: 'runs/r',
    stages: ['build'],
    runner: createScriptedStageRunner({ build: { status: 'passed' } }),
    commands: createExecaCommandRunner(),
    goal: {
      schema_version: 1,
      criteria: [
        { id: 'cmd', kind: 'command', command: 'node -e "0"' },
        // ajv's 2020-12 dialect through Node's ESM loader: the package's own goal.json schema, run-relative.
        { id: 'goal-shape', kind: 'json_schema', path: 'a-goal.json', run_relative: true, schema: goalJsonSchema },
      ],
    },
  });
  const result = await loop.run();
  assert.equal(result.stoppedOn, 'complete');
  assert.equal(result.evaluation.criteria[1].status, 'PASS');
  // The fix-loop entry's git patch applier through execa: a candidate without a patch is not applied, never a throw.
  const applier = createGitPatchApplier({ commands: createExecaCommandRunner() });
  const refused = await applier.apply(
    { description: 'nothing', confidence: 1, mutationType: 'auto' },
    { workspace: dir, signal: new AbortController().signal },
  );
  assert.equal(refused.applied, false);
  const memory = createMemoryFileSystem();
  await memory.writeText('x', 'y');
  assert.equal(await memory.readText('x'), 'y');
} finally {
  await rm(dir, { recursive: true, force: true });
}
const down = { query: async () => Promise.reject(new Error('connection refused')) };
await assert.rejects(createPostgresFileSystem({ client: down, root: '/r' }).writeText('a.json', '{}'), {
  code: 'IO_ERROR',
});
console.log('ESM entries: ok');
