import { normalizePath } from '../../kit/paths.js';
import type { ToolIssue } from '../../ports/tool.js';

/** The build and test commands `start_feedback_loop` accepts: `'any'`, a list, or a list per workspace. @public */
export type AllowedCommands = 'any' | readonly string[] | Readonly<Record<string, readonly string[]>>;

// The commands allowed in a workspace (all of them for 'any').
function allowedIn(allow: AllowedCommands, workspace: string): readonly string[] | 'any' {
  if (allow === 'any' || Array.isArray(allow)) return allow as readonly string[] | 'any';
  const byWorkspace = allow as Readonly<Record<string, readonly string[]>>;
  const wanted = normalizePath(workspace);
  const key = Object.keys(byWorkspace).find((name) => normalizePath(name) === wanted);
  return key === undefined ? [] : (byWorkspace[key] ?? []);
}

/** The issues of a start whose commands are not allowed in its workspace. Pure. @internal */
export function commandRefusals(
  allow: AllowedCommands,
  workspace: string,
  commands: { readonly build_command?: string | undefined; readonly test_command?: string | undefined },
): ToolIssue[] {
  const allowed = allowedIn(allow, workspace);
  if (allowed === 'any') return [];
  const listed =
    allowed.length === 0
      ? `no command is allowed in workspace "${workspace}"`
      : `allowed in workspace "${workspace}": ${allowed.map((command) => JSON.stringify(command)).join(', ')}`;
  const issues: ToolIssue[] = [];
  for (const field of ['build_command', 'test_command'] as const) {
    const command = commands[field];
    if (command !== undefined && !allowed.includes(command))
      issues.push({
        code: 'command_not_allowed',
        path: [field],
        message: `${JSON.stringify(command)} is not allowed; ${listed}`,
      });
  }
  return issues;
}
