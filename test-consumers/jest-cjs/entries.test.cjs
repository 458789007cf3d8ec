// Every entry point of goal-loop, required by name from a Jest (CommonJS) suite, and exercised for real:
// a small goal loop on the memory filesystem, a real command through the execa runner, and a review.
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = require('goal-loop');
const review = require('goal-loop/review');
const node = require('goal-loop/node');
const testing = require('goal-loop/testing');
const postgres = require('goal-loop/postgres');

test('goal-loop: a loop over the memory filesystem with a scripted runner completes', async () => {
  const goalSchema = JSON.parse(readFileSync(require.resolve('goal-loop/schemas/goal.schema.json'), 'utf8'));
  const fs = testing.createMemoryFileSystem({
    files: { 'runs/r/out.json': '{"name":"x"}', 'runs/r/a-goal.json': '{"schema_version":1}' },
  });
  const runner = testing.createScriptedStageRunner({ build: { status: 'passed' } });
  const goal = root.defineGoal({
    schema_version: 1,
    goal_id: 'jest-smoke',
    criteria: [
      { id: 'out', kind: 'file_exists', path: 'runs/r/out.json' },
      {
        id: 'shape',
        kind: 'json_schema',
        run_relative: true,
        path: 'out.json',
        schema: {
          type: 'object',
          required: ['name'],
          unevaluatedProperties: false,
          properties: { name: { pattern: '^(x+)+$' } },
        },
      },
      // The package's own goal.json schema (JSON Schema 2020-12).
      { id: 'goal-shape', kind: 'json_schema', run_relative: true, path: 'a-goal.json', schema: goalSchema },
    ],
  });
  const loop = new root.GoalLoop({
    fs,
    runDir: 'runs/r',
    stages: ['build'],
    runner,
    goal,
    clock: testing.createManualClock(0),
  });
  const result = await loop.run();
  expect(result.stoppedOn).toBe('complete');
  expect(result.evaluation.status).toBe('PASS');
  expect(root.exitCodeFor(result)).toBe(0);
  expect(runner.calls.map((call) => call.stageId)).toEqual(['build']);
});

test('goal-loop/testing: the fake command runner answers a command criterion', async () => {
  const commands = testing.createFakeCommandRunner({ 'npm test': { exitCode: 1, stderrTail: '1 failing' } });
  const loop = new root.GoalLoop({
    fs: testing.createMemoryFileSystem(),
    runDir: 'r',
    stages: ['code'],
    runner: testing.createScriptedStageRunner({ code: { status: 'passed' } }),
    commands,
    goal: { schema_version: 1, criteria: [{ id: 'tests', kind: 'command', command: 'npm test' }] },
  });
  const evaluation = await loop.evaluate();
  expect(evaluation.status).toBe('RETRY');
  expect(evaluation.criteria[0]).toMatchObject({ id: 'tests', status: 'FAIL' });
});

test('goal-loop/node: a loop on the real filesystem runs a real command through execa', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'goal-loop-jest-'));
  try {
    const commands = node.createExecaCommandRunner();
    const ran = await commands.run('node -e "process.exit(3)"', { cwd: dir, timeoutMs: 10_000 });
    expect(ran.exitCode).toBe(3);
    const loop = new root.GoalLoop({
      fs: node.createNodeFileSystem(dir),
      runDir: 'runs/r',
      stages: ['build'],
      runner: testing.createScriptedStageRunner({ build: { status: 'passed' } }),
      commands,
      goal: {
        schema_version: 1,
        criteria: [{ id: 'echo', kind: 'command', command: 'node -e "console.log(42)"', timeout_ms: 10_000 }],
      },
    });
    const result = await loop.run();
    expect(result.stoppedOn).toBe('complete');
    expect(result.evaluation.criteria[0]).toMatchObject({ id: 'echo', status: 'PASS' });
    expect(await node.createNodeFileSystem(dir).readText('runs/r/loop-state.json')).toContain('"complete"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('goal-loop/review: the review of an empty run writes its report and blocks', async () => {
  const fs = testing.createMemoryFileSystem();
  const { report, written } = await review.runConsistencyReview({
    fs,
    runDir: 'runs/r',
    now: '2030-01-01T00:00:00.000Z',
  });
  expect(report.pipeline_status).toBe('BLOCKED');
  const feedback = written.at(-1);
  expect(feedback).toMatch(/^runs\/r\/.*feedback\.json$/);
  expect(JSON.parse(await fs.readText(feedback)).pipeline_status).toBe('BLOCKED');
  expect(review.reviewPipeline({}, { timestamp: '2030-01-01T00:00:00.000Z' }).pipeline_status).toBe('BLOCKED');
});

// The filesystem conformance suite, registered with Jest's own globals, over the real Node filesystem.
describe('goal-loop/testing: the conformance suite under Jest', () => {
  const dirs = [];
  testing.describeFileSystemConformance(
    'createNodeFileSystem',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'goal-loop-jest-fs-'));
      dirs.push(dir);
      return { fs: node.createNodeFileSystem(dir), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
    { describe, it, beforeEach, afterEach },
  );
});

test('goal-loop/critics: a staged pipeline on the memory filesystem completes after one retry', async () => {
  const critics = require('goal-loop/critics');
  let drafts = 0;
  const pipeline = new critics.StagedPipeline({
    fs: testing.createMemoryFileSystem(),
    dir: 'critics',
    clock: testing.createManualClock(0),
    stages: [
      {
        id: 'plan',
        generate: async () => ({ output: { draft: ++drafts } }),
        critic: async ({ output }) =>
          output.draft > 1
            ? { decision: 'accept', issues: [] }
            : { decision: 'retry', issues: [{ issue: 'too thin' }] },
      },
    ],
  });
  const result = await pipeline.run({ executionId: 'jest-1', spec: { feature: 'x' } });
  expect(result.status).toBe('completed');
  expect(result.outputs.plan).toEqual({ draft: 2 });
  expect(critics.computeCriticMetrics([result]).overall.executions).toBe(1);
});

test('goal-loop/fix-loop: a fix session on the memory filesystem converges and refuses another step', async () => {
  const fixLoop = require('goal-loop/fix-loop');
  let failing = 2;
  const fixer = new fixLoop.FixLoopOrchestrator({
    fs: testing.createMemoryFileSystem({ files: { 'ws/package.json': '{}' } }),
    dir: 'fix-sessions',
    commands: testing.createFakeCommandRunner([
      { match: /^command -v /, respond: { exitCode: 0 } },
      {
        match: 'npm test',
        respond: () => ({
          exitCode: failing === 0 ? 0 : 1,
          stdoutTail: `# tests 2\n# pass ${2 - failing}\n# fail ${failing}\n`,
        }),
      },
    ]),
    candidates: { propose: ({ gap }) => [{ description: `fix ${gap.gap}`, confidence: 0.9, mutationType: 'auto' }] },
    applier: {
      apply: async () => {
        failing -= 1;
        return { applied: true, detail: 'one test fixed' };
      },
    },
    clock: testing.createManualClock(0),
  });
  const { sessionId } = await fixer.start({
    goal: 'tests pass',
    goalType: 'tests',
    workspace: 'ws',
    testCommand: 'npm test',
  });
  const result = await fixer.runToCompletion(sessionId);
  expect(result).toMatchObject({ status: 'converged', stepsTaken: 4, escalationFiles: null });
  expect(result.audit.map((entry) => entry.action_type)).toEqual([
    'probe',
    'measure',
    'test_iteration',
    'test_iteration',
  ]);
  await expect(fixer.step(sessionId)).rejects.toMatchObject({ code: 'SESSION_ENDED' });
});

test('goal-loop/contracts: the schemas validate what the entries write', () => {
  const contracts = require('goal-loop/contracts');
  const report = review.reviewPipeline({}, { timestamp: '2030-01-01T00:00:00.000Z' });
  expect(contracts.feedbackReportSchema.safeParse(report).success).toBe(true);
  expect(contracts.goalSchema.safeParse({ schema_version: 1, criteria: [{ id: 'x', kind: 'nope' }] }).success).toBe(
    false,
  );
  expect(contracts.STOP_REASONS).toContain('complete');
  expect(contracts.FIX_POLICY.length).toBeGreaterThan(0);
});

test('goal-loop/postgres: options are checked, and a client that cannot reach its database is an IO_ERROR', async () => {
  // PGlite loads its WASM through a dynamic import, which Jest's CommonJS loader refuses: a client stands in.
  expect(() => postgres.createPostgresFileSystem({ client: {}, root: 'relative' })).toThrow(/client.*root|root/s);
  const statements = [];
  const down = {
    query: async (text) => {
      statements.push(text);
      throw new Error('connection refused');
    },
  };
  const fs = postgres.createPostgresFileSystem({ client: down, root: '/jest' });
  await expect(fs.writeText('runs/r/state.json', '{}')).rejects.toMatchObject({
    code: 'IO_ERROR',
    message: expect.stringContaining('runs/r/state.json'),
  });
  expect(statements[0]).toMatch(/goal_loop_schema_versions/);
});
