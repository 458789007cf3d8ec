// What git apply said, read for the applier's result: the paths it skipped, its error lines, where it looked.

import type { CommandResult } from '../../ports/command-runner.js';
import type { ApplyResult } from '../host-ports.js';

/** The paths git reported as skipped (it prints them with --verbose and still exits 0), or null. @internal */
export function skipped(result: CommandResult): string[] | null {
  const paths = [...`${result.stderrTail}\n${result.stdoutTail}`.matchAll(/^Skipped patch '(.*)'\.$/gm)].map(
    (match) => match[1] ?? '',
  );
  return paths.length === 0 ? null : paths;
}

/** A patch git skipped (some of) without an error: not applied, naming the first paths. @internal */
export function notInWorkspace(paths: readonly string[], workspace: string, consequence: string): ApplyResult {
  const named = paths.slice(0, 5).join("', '") + (paths.length > 5 ? `' and ${paths.length - 5} more` : "'");
  return {
    applied: false,
    detail: `git skipped '${named} (paths outside the workspace ${workspace}?); ${consequence}`,
  };
}

/** Where a refused patch's paths were looked for, when the workspace is below its repository's top. @internal */
export function hint(prefix: string): string {
  return prefix === '' ? '' : ` (paths are read relative to the workspace, ${prefix} in its git repository)`;
}

/**
 * What a failed git run said: its error lines (the first few; --verbose adds progress lines and the text it
 * searched for), else its other output, or why it did not run. @internal
 */
export function why(result: CommandResult): string {
  if (result.timedOut) return 'git timed out';
  if (result.aborted) return 'aborted';
  if (result.startError !== undefined) return result.startError;
  const lines = `${result.stderrTail}\n${result.stdoutTail}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^(Checking|Applied|Skipped) patch /.test(line));
  const errors = lines.filter((line) => /^(error|fatal):/.test(line) && line !== 'error: while searching for:');
  const said = (errors.length > 0 ? errors : lines).slice(0, 6).join(' | ');
  return said === '' ? `exit code ${String(result.exitCode)}` : `${said} (exit code ${String(result.exitCode)})`;
}
