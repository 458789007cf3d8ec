// CI check of the CLI example, on real child processes over the demo pipeline in a fresh folder:
// 0. Ctrl-C twice (a second SIGINT while the loop stops) → still `aborted` (exit 130), the lock released: `run`
//    resumes that run → exit 0. `approve` of a criterion the goal does not have exits 1 and writes nothing.
// 1. Ctrl-C: SIGINT sent to a `run` mid-pipeline → `aborted` (exit 130); `status` shows it paused; `run` resumes → exit 0.
// 2. A release sign-off (a judge criterion) in the goal from the start, on a fresh run: `run` retries what the review
//    found first and only then stops ASK_USER (exit 4), once; `status` names the judge and the stamp; `approve` →
//    the verdict for the next iteration; `run` → PASS (exit 0) with no stage rerun; `report` → Markdown whose
//    Mermaid passes mermaid's parser.
import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractMermaidBlocks, mermaidError } from '../../scripts/mermaid-parse.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const cliPath = fileURLToPath(new URL('./cli.ts', import.meta.url));
const root = await mkdtemp(join(tmpdir(), 'goal-loop-cli-'));
const runDir = '.goal-loop/runs/cli-check';
let failures = 0;

function check(ok: boolean, what: string, output = ''): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) {
    failures += 1;
    console.log(output.replace(/^/gm, '     | '));
  }
}

// Runs the CLI as a child process; `interruptOn` sends it SIGINT once its output shows that text (`twice`: a
// second one as soon as it says it is stopping, while the loop cancels the stage and releases its lock).
function cli(
  args: string[],
  interruptOn?: string,
  { twice = false, dir = runDir }: { twice?: boolean; dir?: string } = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', cliPath, '--root', root, '--run-dir', dir, ...args], {
    cwd: repo,
  });
  let output = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (interruptOn !== undefined && output.includes(interruptOn) && child.exitCode === null) {
      child.kill('SIGINT');
      interruptOn = undefined;
    }
    if (twice && output.includes('stopping:') && child.exitCode === null) {
      child.kill('SIGINT');
      twice = false;
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

try {
  console.log(`CLI check in ${root}\n`);
  const doubleDir = '.goal-loop/runs/cli-double';
  const twice = await cli(['run'], 'stage 03-documentation started', { twice: true, dir: doubleDir });
  check(twice.code === 130, `run interrupted by two SIGINTs still exits 130 (got ${twice.code})`, twice.output);
  check(twice.output.includes('already stopping'), 'the second SIGINT says it is already stopping', twice.output);
  const lockLeft = await access(join(root, doubleDir, 'loop.lock')).then(
    () => true,
    () => false,
  );
  check(!lockLeft, 'no loop.lock is left behind', twice.output);
  const afterTwice = await cli(['run'], undefined, { dir: doubleDir });
  check(afterTwice.code === 0, `run again resumes it, exit 0 (got ${afterTwice.code})`, afterTwice.output);
  const stray = await cli(['approve', 'release-sign-off'], undefined, { dir: doubleDir });
  const strayVerdicts = await access(join(root, doubleDir, 'goal-verdict.json')).then(
    () => true,
    () => false,
  );
  check(
    stray.code === 1 && stray.output.includes('has no criterion "release-sign-off"') && !strayVerdicts,
    'approve of a criterion the (default) goal does not have exits 1 and writes nothing',
    stray.output,
  );

  const interrupted = await cli(['run'], 'stage 03-documentation started');
  check(interrupted.code === 130, `run interrupted by SIGINT exits 130 (got ${interrupted.code})`, interrupted.output);
  check(
    /^aborted \(aborted, resumable\)/m.test(interrupted.output),
    'its result line says aborted',
    interrupted.output,
  );
  const paused = await cli(['status']);
  check(paused.code === 0 && paused.output.includes('paused on aborted'), 'status shows the run paused', paused.output);
  const resumed = await cli(['run']);
  check(resumed.code === 0, `run again resumes and completes, exit 0 (got ${resumed.code})`, resumed.output);
  check(resumed.output.includes('resumed an unfinished session'), 'it resumed the session', resumed.output);

  const signOffDir = '.goal-loop/runs/cli-sign-off';
  const signOff = (args: string[]) => cli(args, undefined, { dir: signOffDir });
  const goal = JSON.parse(await readFile(new URL('../demo/goal.json', import.meta.url), 'utf8'));
  const question = 'Does the product owner sign off the release?';
  goal.criteria.push({ id: 'release-sign-off', kind: 'judge', question });
  delete goal.$schema;
  await mkdir(join(root, signOffDir), { recursive: true });
  await writeFile(join(root, signOffDir, 'goal.json'), JSON.stringify(goal, null, 2));
  const asks = await signOff(['run']);
  check(asks.code === 4, `run with a judge criterion stops on ask_user, exit 4 (got ${asks.code})`, asks.output);
  check(
    asks.output.includes('retrying ') && asks.output.includes('is asked once nothing else is rerun'),
    'it retried what the review found before asking the judge',
    asks.output,
  );
  const status = await signOff(['status']);
  check(
    status.output.includes('stopped on ask_user') && status.output.includes('to answer: approve release-sign-off'),
    'status shows the ask_user stop and what to answer',
    status.output,
  );
  const typo = await signOff(['approve', 'release-signoff']);
  check(
    typo.code === 1 && typo.output.includes('INVALID_OPTIONS') && typo.output.includes('release-sign-off'),
    'approve of an unknown criterion exits 1, naming the known ones',
    typo.output,
  );
  const stamp = /stamped for iteration (\d+)/.exec(status.output)?.[1] ?? '?';
  const approve = await signOff(['approve', 'release-sign-off', '--reason', 'demo reviewed']);
  check(
    approve.code === 0 && approve.output.includes(`PASS for iteration ${stamp}`),
    'approve stamps the iteration status named',
    approve.output,
  );
  const passes = await signOff(['run']);
  check(passes.code === 0 && /^complete \(goal met\)/m.test(passes.output), 'run again passes, exit 0', passes.output);
  check(
    !passes.output.includes('stage 0'),
    'no stage reran after the approval: one approval, no wasted work',
    passes.output,
  );
  const usage = await cli(['approve']);
  check(usage.code === 2, `a usage error exits 2 (got ${usage.code})`, usage.output);

  const report = await cli(['report', '--out', join(root, 'report.md')]);
  const signOffReport = await signOff(['report']);
  check(
    (signOffReport.output.match(/\(\["ask_user/g) ?? []).length === 1,
    'the sign-off run asked the human once',
    signOffReport.output,
  );
  const markdown = await readFile(join(root, 'report.md'), 'utf8').catch(() => '');
  check(
    report.code === 0 && /Stopped on \*\*complete\*\* at iteration \d+/.test(markdown),
    'report writes the run',
    markdown,
  );
  const blocks = extractMermaidBlocks(markdown);
  const errors = await Promise.all(blocks.map((block) => mermaidError(block.source)));
  check(
    blocks.length === 1 && errors.every((error) => error === null),
    "its Mermaid passes mermaid's parser",
    errors.join('\n'),
  );
  check(
    /S\d+ -->\|"resumed"\| I1/.test(markdown) && signOffReport.output.includes('-->|"new session"|'),
    'its paths show the resume and the sessions',
    markdown,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
console.log(failures === 0 ? '\nCLI check passed' : `\nCLI check: ${failures} failure(s)`);
process.exitCode = failures === 0 ? 0 : 1;
