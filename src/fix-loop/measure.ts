import type { CommandResult } from '../ports/command-runner.js';
import { throwIfAborted } from '../runtime/host-call.js';
import { countBuildErrors, reconcileCounts, type TestCounts, testCountsFromOutput } from './command-output.js';
import type { GapParts } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';
import type { TestReportFile } from './contracts/start.js';
import { failureOutputTail } from './core/start.js';
import type { StepContext } from './host-calls.js';
import { prepareReport, readReportFile } from './report-file.js';
import type { WorkspaceFact } from './workspace.js';

/** A measurement: the gap's parts, the tail of the failing commands' output, and one sentence. @internal */
export interface Measurement {
  readonly parts: GapParts;
  readonly failureOutput: string;
  readonly summary: string;
}

const NO_TESTS: TestCounts = { failed: 0, passed: 0, total: 0 };
const BUILD_OK = { failing: false, error_count: 0 } as const;

// What one command's part of a measurement found.
interface Finding<T> {
  readonly value: T;
  readonly missing: readonly string[];
  readonly failure: string | null;
  readonly said: string;
}

const NO_COMMAND_DETAIL = 'the session has neither a build nor a test command, so no gap can be measured';
const NO_COMMAND: Finding<null> = { value: null, missing: [NO_COMMAND_DETAIL], failure: null, said: NO_COMMAND_DETAIL };

/**
 * Measures the gap: runs the build and the test command (each when the session has one) through the command runner in
 * the workspace, and reads the test counts from the configured report (removed before the run, so a stale one is
 * never read) or else from the runner's summary, reconciled with the exit code. @internal
 */
export async function measureGap(
  context: StepContext,
  state: FixSessionState,
  workspace: WorkspaceFact,
): Promise<Measurement> {
  if (!workspace.ok) {
    const parts = { build: BUILD_OK, tests: NO_TESTS, requirements: { missing: [workspace.detail] } };
    return { parts, failureOutput: '', summary: workspace.detail };
  }
  const build =
    state.build_command === undefined ? null : await measureBuild(context, state.build_command, workspace.absolute);
  const tests =
    state.test_command === undefined
      ? null
      : await measureTests(context, state.test_command, state.test_report, workspace);
  const findings: Finding<unknown>[] = [build, tests].filter((finding) => finding !== null);
  // Nothing to run measures nothing: a zero gap would claim a convergence no command checked.
  if (findings.length === 0) findings.push(NO_COMMAND);
  const failures = findings.map((finding) => finding.failure).filter((failure) => failure !== null);
  return {
    parts: {
      build: build?.value ?? BUILD_OK,
      tests: tests?.value ?? NO_TESTS,
      requirements: { missing: findings.flatMap((finding) => finding.missing) },
    },
    failureOutput: failureOutputTail(failures.join('\n')),
    summary: findings.map((finding) => finding.said).join('; '),
  };
}

// Runs the build: passing, failing with its error lines counted, or not started (a missing requirement).
async function measureBuild(context: StepContext, command: string, cwd: string): Promise<Finding<GapParts['build']>> {
  const result = await run(context, command, cwd);
  const unstarted = notStarted(command, result, cwd);
  if (unstarted !== null) return { value: BUILD_OK, missing: [unstarted], failure: null, said: unstarted };
  if (result.exitCode === 0) return { value: BUILD_OK, missing: [], failure: null, said: 'the build passed' };
  const errors = countBuildErrors(`${result.stdoutTail}\n${result.stderrTail}`);
  const said = `the build failed (${result.timedOut ? 'timed out' : `${errors} error line(s)`})`;
  return { value: { failing: true, error_count: errors }, missing: [], failure: transcript(command, result), said };
}

// Runs the tests and counts them from the report or the output.
async function measureTests(
  context: StepContext,
  command: string,
  report: TestReportFile | undefined,
  workspace: Extract<WorkspaceFact, { ok: true }>,
): Promise<Finding<TestCounts>> {
  const place = report === undefined ? null : await prepareReport(context.fs, workspace.path, report);
  if (place !== null && !place.ok)
    return { value: NO_TESTS, missing: [place.detail], failure: null, said: place.detail };
  const result = await run(context, command, workspace.absolute);
  const unstarted = notStarted(command, result, workspace.absolute);
  if (unstarted !== null) return { value: NO_TESTS, missing: [unstarted], failure: null, said: unstarted };
  const output = `${result.stdoutTail}\n${result.stderrTail}`;
  let counted = testCountsFromOutput(output);
  const missing: string[] = [];
  const notes: string[] = [];
  let failure = result.exitCode === 0 ? null : transcript(command, result);
  if (place !== null && report !== undefined) {
    const reading = await readReportFile(context.fs, place.path, report.format);
    if (reading.state === 'read') {
      counted = reading.report;
      const messages = reading.report.failures.map((f) => `✗ ${f.name}\n${f.message}`);
      if (failure !== null && messages.length > 0) failure = `${messages.join('\n')}\n${failure}`;
    } else if (reading.state === 'unusable' || result.exitCode === 0) missing.push(reading.detail);
    else notes.push(`${reading.detail}, counted from the output`);
  }
  const value = reconcileCounts(counted, result.exitCode);
  // Counts were read and not one test passed or failed: a passing exit then proves nothing, so it is no convergence.
  if (counted !== null && value.failed === 0 && value.passed === 0)
    missing.push(`the test command ran no tests: ${command}`);
  // Nothing counted: the exit code alone decided, and the summary says so rather than "0 of 0".
  const counts =
    counted === null
      ? `tests: ${value.failed === 0 ? 'passed' : 'failed'} by exit code (no report or runner summary counted them)`
      : `tests: ${value.failed} failed, ${value.passed} passed of ${value.total}`;
  const said = [counts, ...notes, ...missing];
  return { value, missing, failure, said: said.join('; ') };
}

// Runs one of the session's commands in the workspace, under the lock's heartbeat; an abort leaves the step.
async function run(context: StepContext, command: string, cwd: string): Promise<CommandResult> {
  throwIfAborted(context.signal);
  const result = await context.heartbeat((signal) =>
    context.commands.run(command, { cwd, timeoutMs: context.commandTimeoutMs, signal }),
  );
  throwIfAborted(context.signal);
  return result;
}

// A command whose program was not found (exit 127) or that could not start: a missing requirement.
function notStarted(command: string, result: CommandResult, cwd: string): string | null {
  if (result.startError !== undefined)
    return `the command "${command}" could not start in ${cwd}: ${result.startError}`;
  if (result.exitCode !== 127) return null;
  const said = result.stderrTail.trim().split('\n').at(-1) ?? '';
  return `the command "${command}" was not found in ${cwd} (exit 127${said === '' ? '' : `: ${said}`})`;
}

// What a failing command printed, headed by the command and how it ended.
function transcript(command: string, result: CommandResult): string {
  const ended = result.timedOut ? 'timed out' : `exit ${String(result.exitCode)}`;
  return `$ ${command}  (${ended})\n${result.stdoutTail}${result.stderrTail === '' ? '' : `\n${result.stderrTail}`}`;
}
