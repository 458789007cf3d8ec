// The fix loop on real workspaces: copies of a small package with failing tests, each a git repository, where the
// orchestrator runs the real build and test commands (the test counts read from the JUnit report), asks a rule
// table for fixes and applies them with `git apply`. The first session converges, past a wrong fix ranked first;
// the second escalates because its last failure needs a human. Exits non-zero when either ends otherwise.
// `--keep` keeps the folder and prints its path.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type AuditEntry, escalationReportSchema } from 'goal-loop/contracts';
import { createGitPatchApplier, FixLoopOrchestrator, renderEscalationMarkdown } from 'goal-loop/fix-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { tempProject } from '../shared.js';
import { createRuleCandidateSource, slugifyRules } from './rule-candidates.js';
import { BUILD_COMMAND, createSlugifyWorkspace, TEST_COMMAND } from './workspace.js';

const keep = process.argv.includes('--keep');
const project = await tempProject('fix-loop');
const fs = createNodeFileSystem(project.root);
const commands = createExecaCommandRunner();
const dir = '.goal-loop/fix-sessions';
let failed = false;
const check = (ok: boolean, what: string): void => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
};

const gapText = (gap: number | null): string => (gap === null ? '—' : String(gap));
// One line per step as the orchestrator appends it to the audit log; the orchestrator's sentence for the steps
// that apply nothing (probe, measure, escalate).
function printStep(entry: AuditEntry): void {
  const gaps = `gap ${gapText(entry.gap_before)} → ${gapText(entry.gap_after)}`;
  const head = `  step ${entry.step_index}  ${entry.action_type.padEnd(15)} ${gaps.padEnd(11)} ${entry.session_status_after.padEnd(9)}`;
  console.log(
    entry.candidate_applied === null
      ? `${head} ${entry.action_description}`
      : `${head} applied "${entry.candidate_applied}"`,
  );
}

const fixer = new FixLoopOrchestrator({
  fs,
  dir,
  commands,
  candidates: createRuleCandidateSource(slugifyRules),
  applier: createGitPatchApplier({ commands }),
  onEvent: printStep,
});
const start = (workspace: string, goal: string) =>
  fixer.start({
    goal,
    goalType: 'tests_pass',
    workspace,
    buildCommand: BUILD_COMMAND,
    testCommand: TEST_COMMAND,
    testReport: { format: 'junit', path: 'report.xml' },
    maxAttempts: 5,
  });
const sessionFile = (sessionId: string, file: string): string => join(project.root, dir, sessionId, file);
const run = promisify(execFile);

try {
  console.log('Session 1: two failing tests; the rule table ranks a plausible wrong fix first\n');
  const fixable = await createSlugifyWorkspace(project.root, 'slugify');
  const first = await start('slugify', 'slugify passes its tests');
  const probed = await fixer.step(first.sessionId); // one step by hand, the rest to the end
  const converged = await fixer.runToCompletion(first.sessionId, { maxWallMs: 120_000 });
  const { attempts } = (await fixer.get(first.sessionId)).state;
  const trend = converged.audit.filter((entry) => entry.gap_after !== null).map((entry) => entry.gap_after);
  console.log(
    `\none step() by hand (${probed.action}), then runToCompletion: ${converged.stepsTaken} step(s), ${converged.status}`,
  );
  console.log(`gap trend ${trend.join(' → ')}; ${attempts.length} attempt(s)`);
  console.log(`audit log ${sessionFile(first.sessionId, 'audit.jsonl')}:`);
  const audit = (await fs.readText(`${dir}/${first.sessionId}/audit.jsonl`)) ?? '';
  for (const line of audit.trimEnd().split('\n')) console.log(`  ${line}`);
  const { stdout: diff } = await run('git', ['diff'], { cwd: fixable });
  console.log(`\nthe workspace's changes (git diff):\n${diff}`);

  const [wrong] = attempts;
  const descriptions = attempts.map((attempt) => attempt.candidate_description);
  check(converged.status === 'converged' && converged.gap?.gap === 0, 'session 1 converges: the gap is 0');
  check(
    wrong?.candidate_description === 'Trim whitespace around the title before slugifying' &&
      wrong.outcome === 'reverted' &&
      wrong.gap_after === wrong.gap_before,
    'the wrong fix was tried first: it applied, left the gap as it was, and was reverted',
  );
  check(
    attempts.length === 3 && new Set(descriptions).size === 3,
    'three attempts, none repeated: the tried fix was skipped although the rule proposed it again',
  );
  check(trend.join(' ') === '2 2 1 0', 'the audit log shows the gap trend 2 → 2 → 1 → 0');
  const rerun = await commands.run(TEST_COMMAND, { cwd: fixable, timeoutMs: 60_000 });
  check(rerun.exitCode === 0, 'the tests pass when run again outside the loop');

  console.log('\nSession 2: the same package and a test that no automatic fix passes\n');
  await createSlugifyWorkspace(project.root, 'slugify-non-latin', ['non-latin']);
  const second = await start('slugify-non-latin', 'slugify passes its tests, non-Latin titles included');
  const escalated = await fixer.runToCompletion(second.sessionId, { maxWallMs: 120_000 });
  const report = escalated.escalation;
  const files = escalated.escalationFiles;
  if (files !== null) {
    // The orchestrator wrote the report beside the session's own files, as Markdown and as JSON.
    console.log(`\n${(await fs.readText(files.markdown)) ?? ''}`);
    console.log(`the report as Markdown: ${join(project.root, files.markdown)}`);
    console.log(`the report as JSON:     ${join(project.root, files.json)}`);
    console.log(`(also the "escalation" field of ${sessionFile(second.sessionId, 'state.json')})\n`);
  }
  check(
    escalated.status === 'escalated' && report?.escalation_reason === 'manual_required',
    'session 2 escalates manual_required',
  );
  const written = escalationReportSchema.safeParse(
    JSON.parse((files === null ? null : await fs.readText(files.json)) ?? 'null'),
  );
  check(
    files !== null && written.success && (await fs.readText(files.markdown)) === renderEscalationMarkdown(written.data),
    'the orchestrator wrote the report as escalation.json and escalation.md beside the session',
  );
  check(
    written.success &&
      report?.attempts_made === 3 &&
      report.top_remaining_candidates[0]?.description.startsWith('Transliterate') === true,
    'its report holds the 3 attempts and the manual transliteration fix on top of the candidates not tried',
  );
} finally {
  if (keep) console.log(`\nkept ${project.root}`);
  else await project.dispose();
}
if (failed) process.exitCode = 1;
