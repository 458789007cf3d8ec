// Smoke test of the built CommonJS entries: require() each one and call its exports for real,
// so a default import of an ESM-only package (execa, p-limit) that breaks only in CJS is caught.
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync, readFileSync, readdirSync } = require('node:fs');
const { isBuiltin } = require('node:module');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const dist = join(__dirname, '../dist');
const entries = [
  'index.cjs',
  'review.cjs',
  'critics.cjs',
  'fix-loop.cjs',
  'node.cjs',
  'testing.cjs',
  'postgres.cjs',
  'contracts.cjs',
];

// No CommonJS file of the build may require() an ES module: Jest's loader (and Node without require(esm)) cannot.
// Statically: every bare specifier resolves to a CommonJS file. Then for real, with require(esm) turned off.
const cjsFiles = readdirSync(dist).filter((file) => file.endsWith('.cjs'));
for (const file of cjsFiles) {
  const text = readFileSync(join(dist, file), 'utf8');
  for (const [, specifier] of text.matchAll(/require\(["']([^"'./][^"']*)["']\)/g)) {
    if (isBuiltin(specifier)) continue;
    const resolved = require.resolve(specifier, { paths: [dist] });
    assert.ok(
      !isEsm(resolved),
      `${file} requires "${specifier}", an ES module (${resolved}): bundle it into the CJS build`,
    );
  }
}
const strict = spawnSync(
  process.execPath,
  [
    '--no-experimental-require-module',
    '-e',
    entries.map((entry) => `require(${JSON.stringify(join(dist, entry))});`).join(''),
  ],
  { encoding: 'utf8' },
);
assert.equal(strict.status, 0, `the CJS entries need require(esm):\n${strict.stderr}`);

// Whether Node loads a resolved file as an ES module (.mjs, or .js under a "type": "module" package.json).
function isEsm(file) {
  if (file.endsWith('.mjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = join(file, '..'); ; dir = join(dir, '..')) {
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      if (dir === join(dir, '..')) return false;
      continue;
    }
    return manifest.type === 'module';
  }
}

const root = require('../dist/index.cjs');
const node = require('../dist/node.cjs');
const testing = require('../dist/testing.cjs');
const review = require('../dist/review.cjs');
const postgres = require('../dist/postgres.cjs');

// The root entry must not reach Node built-ins or execa, directly or through its chunks.
function reachable(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(dist, file), 'utf8');
  for (const match of text.matchAll(/require\(["']\.\/([^"']+)["']\)/g)) reachable(match[1], seen);
  return seen;
}
const forbidden = /require\(["'](node:)?(fs|fs\/promises|child_process)["']\)|require\(["']execa["']\)/;
for (const entry of ['index.cjs', 'review.cjs', 'critics.cjs', 'fix-loop.cjs', 'contracts.cjs']) {
  for (const file of reachable(entry))
    assert.ok(!forbidden.test(readFileSync(join(dist, file), 'utf8')), `${file} imports a Node-only module`);
}
assert.ok(reachable('index.cjs').size > 1, 'the chunks of index.cjs are followed');
// No entry loads a database driver: goal-loop/postgres takes the host's client.
for (const file of cjsFiles)
  assert.ok(
    !/require\(["'](pg|@electric-sql\/pglite)["']\)/.test(readFileSync(join(dist, file), 'utf8')),
    `${file} loads pg`,
  );
// Importing the goal loop loads neither the review (its stage-contract schemas live only behind goal-loop/review)
// nor the staged critics, nor the fix loop.
for (const file of reachable('index.cjs')) {
  const text = readFileSync(join(dist, file), 'utf8');
  assert.ok(!text.includes('traceability_matrix'), `${file} carries the review`);
  assert.ok(!text.includes('StagedPipeline'), `${file} carries the staged critics`);
  assert.ok(!text.includes('FixLoopOrchestrator'), `${file} carries the fix loop`);
}

async function main() {
  assert.equal(root.exitCodeFor({ stoppedOn: 'complete' }), 0);
  assert.equal(root.parseGoal({ schema_version: 1, criteria: [{ id: 'x', kind: 'nope' }] }).success, false);

  // re2js under ajv: a pattern with a lookahead is refused when the goal is read.
  const lookahead = { id: 'x', kind: 'json_schema', path: 'a.json', schema: { pattern: '^(?=a)' } };
  assert.match(root.parseGoal({ schema_version: 1, criteria: [lookahead] }).issues[0].message, /lookahead/);

  // p-limit, ajv and re2js through the root entry: a dry run with a json_schema criterion on the memory filesystem.
  const fs = testing.createMemoryFileSystem({ files: { 'runs/r/a.json': '{"name":"x"}' } });
  const loop = new root.GoalLoop({
    fs,
    runDir: 'runs/r',
    stages: ['s'],
    runner: testing.createScriptedStageRunner({ s: { status: 'passed' } }),
    clock: testing.createManualClock(0),
    goal: {
      schema_version: 1,
      criteria: [
        {
          id: 'shape',
          kind: 'json_schema',
          run_relative: true,
          path: 'a.json',
          schema: { type: 'object', required: ['name'], properties: { name: { pattern: '^(x+)+$' } } },
        },
      ],
    },
  });
  const result = await loop.run();
  assert.equal(result.stoppedOn, 'complete');

  // The review entry: the pure review over no contracts blocks the pipeline and says why.
  const report = review.reviewPipeline({}, { timestamp: '2030-01-01T00:00:00.000Z' });
  assert.equal(report.pipeline_status, 'BLOCKED');
  // The contracts entry: the review's report validates against feedback.json's schema.
  const contracts = require('../dist/contracts.cjs');
  assert.equal(contracts.feedbackReportSchema.safeParse(report).success, true);
  assert.equal(contracts.goalSchema.safeParse({ schema_version: 1 }).success, true);

  // The critics entry: the pure metrics over no traces.
  const critics = require('../dist/critics.cjs');
  assert.equal(typeof critics.StagedPipeline, 'function');
  assert.equal(critics.computeCriticMetrics([]).overall.executions, 0);

  // The fix-loop entry: a session on the memory filesystem whose one failing test a candidate fixes.
  const fixLoop = require('../dist/fix-loop.cjs');
  let failing = 1;
  const fixer = new fixLoop.FixLoopOrchestrator({
    fs: testing.createMemoryFileSystem({ files: { 'ws/package.json': '{}' } }),
    dir: 'fix-sessions',
    commands: testing.createFakeCommandRunner([
      { match: /^command -v /, respond: { exitCode: 0 } },
      {
        match: 'npm test',
        respond: () => ({ exitCode: failing, stdoutTail: `# tests 1\n# pass ${1 - failing}\n# fail ${failing}\n` }),
      },
    ]),
    candidates: { propose: () => [{ description: 'fix it', confidence: 0.9, mutationType: 'auto' }] },
    applier: {
      apply: async () => {
        failing = 0;
        return { applied: true, detail: 'fixed' };
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
  const fixed = await fixer.runToCompletion(sessionId);
  assert.equal(fixed.status, 'converged');
  assert.equal(fixed.stepsTaken, 3);
  assert.equal(fixed.audit.length, 3);
  assert.equal(typeof fixLoop.createGitPatchApplier({ commands: node.createExecaCommandRunner() }).apply, 'function');

  // execa through the node entry: a real command and a real filesystem.
  const dir = mkdtempSync(join(tmpdir(), 'goal-loop-smoke-'));
  try {
    const commands = node.createExecaCommandRunner();
    const ran = await commands.run('node -e "process.exit(3)"', { cwd: dir, timeoutMs: 10_000 });
    assert.equal(ran.exitCode, 3);
    const nodeFs = node.createNodeFileSystem(dir);
    await nodeFs.writeText('a/b.txt', 'hello');
    assert.equal(await nodeFs.readText('a/b.txt'), 'hello');
    assert.ok(readdirSync(join(dir, 'a')).includes('b.txt'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The postgres entry: options checked, and a client's failure is the port's IO_ERROR naming the path.
  assert.throws(() => postgres.createPostgresFileSystem({ client: {}, root: 'rel' }), { code: 'INVALID_OPTIONS' });
  const down = { query: async () => Promise.reject(new Error('connection refused')) };
  await assert.rejects(postgres.createPostgresFileSystem({ client: down, root: '/r' }).readText('a.json'), {
    code: 'IO_ERROR',
    message: /a\.json.*connection refused/,
  });
  console.log('CommonJS entries: ok');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
