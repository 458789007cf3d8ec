#!/usr/bin/env bash
# Installs the package as a user would, into scratch projects outside the checkout: the packed tarball, and a
# git URL of this checkout (npm clones it and runs `prepare`, which builds dist/). Each project then runs a goal
# loop from ESM and from CommonJS and must reach `complete`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/goal-loop-install-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

# A loop over two in-memory stages and a file criterion, written as a user's first script.
write_user_scripts() {
  cat > "$1/loop.mjs" <<'JS'
import { GoalLoop, exitCodeFor } from 'goal-loop';
import { goalSchema } from 'goal-loop/contracts';
import { createMemoryFileSystem, createScriptedStageRunner } from 'goal-loop/testing';
const fs = createMemoryFileSystem();
const runner = createScriptedStageRunner({
  plan: async (ctx) => { await ctx.fs.writeText(`${ctx.runDir}/plan.md`, '# plan'); return { status: 'passed' }; },
  code: [{ status: 'failed' }, { status: 'passed' }],
});
const goal = { schema_version: 1, goal_id: 'first', criteria: [{ id: 'plan', kind: 'file_exists', path: 'plan.md', run_relative: true, rerun_stages: ['plan'] }] };
if (!goalSchema.safeParse(goal).success) throw new Error('goal.json does not match goal-loop/contracts');
const result = await new GoalLoop({ fs, runDir: 'runs/r-1', stages: ['plan', 'code'], runner, goal }).run();
console.log(`esm: ${result.stoppedOn} after ${result.iterations} iteration(s)`);
process.exitCode = exitCodeFor(result);
JS
  cat > "$1/loop.cjs" <<'JS'
const { GoalLoop, exitCodeFor } = require('goal-loop');
const { createMemoryFileSystem, createScriptedStageRunner } = require('goal-loop/testing');
const runner = createScriptedStageRunner({ plan: { status: 'passed' }, code: { status: 'passed' } });
new GoalLoop({ fs: createMemoryFileSystem(), runDir: 'runs/r-1', stages: ['plan', 'code'], runner })
  .run()
  .then((result) => {
    console.log(`cjs: ${result.stoppedOn} after ${result.iterations} iteration(s)`);
    process.exitCode = exitCodeFor(result);
  });
JS
}

# Installs `$2` into a new project `$1` and runs both scripts there.
check() {
  local project="$scratch/$1"
  mkdir -p "$project"
  (cd "$project" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$2" >/dev/null)
  write_user_scripts "$project"
  (cd "$project" && node loop.mjs && node loop.cjs)
  echo "ok: $1 install ($2)"
}

tarball="$(cd "$repo" && npm pack --silent --pack-destination "$scratch" | tail -n 1)"
check tarball "$scratch/$tarball"
# A git URL installs what is committed: the checkout's HEAD.
check git-url "git+file://$repo"
