import { formatIssue, type ParseResult } from '../errors.js';
import { joinPath, parentPath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import type { TestReportFile } from './contracts/start.js';
import { readJestJsonReport } from './core/jest-json.js';
import { readJUnitReport } from './core/junit.js';
import type { TestReport } from './core/test-report.js';
import { workspaceFile } from './workspace.js';

const READERS: Readonly<Record<TestReportFile['format'], (text: string) => ParseResult<TestReport>>> = {
  junit: readJUnitReport,
  'jest-json': readJestJsonReport,
};

/** Where the session's test report goes, relative to the root, or why it is refused. @internal */
export type ReportPlace =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly detail: string };

/** Resolves the report path inside the workspace (no symlinks on the way), removes a stale report, makes its folder. @internal */
export async function prepareReport(
  fs: FileSystem,
  workspacePath: string,
  report: TestReportFile,
): Promise<ReportPlace> {
  const place = await workspaceFile(fs, workspacePath, report.path);
  if (!place.ok) return { ok: false, detail: `test report refused: ${place.detail}` };
  const path = joinPath(workspacePath, report.path);
  const link = await symlinkOn(fs, path);
  if (link !== null) return { ok: false, detail: `test report refused: ${link}, never followed or removed` };
  const stat = await fs.stat(path);
  if (stat !== null && stat.type !== 'file')
    return { ok: false, detail: `the test report path ${fs.root}/${path} is not a regular file` };
  if (stat !== null) await fs.remove(path);
  // Runners write the report but do not create its folder (node --test fails with ENOENT).
  await fs.mkdir(parentPath(path));
  return { ok: true, path };
}

/** What reading the report after the test run gave: the report, none written, or why it cannot be used. @internal */
export type ReportReading =
  | { readonly state: 'read'; readonly report: TestReport }
  | { readonly state: 'absent'; readonly detail: string }
  | { readonly state: 'unusable'; readonly detail: string };

/** Reads the report the test command wrote, holding its path to the same rule again. @internal */
export async function readReportFile(
  fs: FileSystem,
  path: string,
  format: TestReportFile['format'],
): Promise<ReportReading> {
  const where = `${fs.root}/${path}`;
  let text: string | null;
  try {
    const link = await symlinkOn(fs, path);
    if (link !== null) return { state: 'unusable', detail: `the test report ${where} is not read: ${link}` };
    text = await fs.readText(path);
  } catch (error) {
    return {
      state: 'unusable',
      detail: `the test report ${where} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (text === null) return { state: 'absent', detail: `the test command wrote no report at ${where}` };
  const parsed = READERS[format](text);
  if (!parsed.success) {
    const issues = parsed.issues.slice(0, 3).map(formatIssue).join('; ');
    return { state: 'unusable', detail: `the test report ${where} is not a ${format} report: ${issues}` };
  }
  return { state: 'read', report: parsed.data };
}

// A sentence naming the first symlink on `path` (relative to the root, normalised): a folder on the way or the file.
async function symlinkOn(fs: FileSystem, path: string): Promise<string | null> {
  const segments = path.split('/');
  for (let end = 1; end <= segments.length; end++) {
    const at = segments.slice(0, end).join('/');
    const stat = await fs.stat(at);
    if (stat === null) return null;
    if (stat.type !== 'symlink') continue;
    const target = await fs.realpath(at);
    const leads = target === null ? 'to nothing' : `to "${target}"`;
    return `"${at}" is a symlink (leading ${leads})`;
  }
  return null;
}
