import { formatIssue, GoalLoopError, issuesFromZod } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { type EscalationReport, escalationReportSchema } from './contracts/escalation.js';
import type { FixSessionState } from './contracts/session.js';
import { renderEscalationMarkdown } from './core/escalation-markdown.js';

/** The folder of a session and its record (the report files go beside it). */
interface SessionPlace {
  readonly dir: string;
  readonly state: string;
}

/** Where an escalated session's report lies: `escalation.json` and `escalation.md` beside its record. @public */
export interface EscalationFiles {
  readonly json: string;
  readonly markdown: string;
}

// The report files of a session (whether or not it escalated).
function escalationFiles(paths: SessionPlace): EscalationFiles {
  return { json: `${paths.dir}/escalation.json`, markdown: `${paths.dir}/escalation.md` };
}

/** The report files of a session that escalated, else `null`. @internal */
export function escalationFilesOf(paths: SessionPlace, state: Pick<FixSessionState, 'status'>): EscalationFiles | null {
  return state.status === 'escalated' ? escalationFiles(paths) : null;
}

/** Writes escalation.json and escalation.md, each fenced; rewritten from the record if a crash cut them off. @internal */
export async function writeEscalationFiles(
  fs: FileSystem,
  paths: SessionPlace,
  report: EscalationReport,
  fence: () => Promise<void>,
): Promise<EscalationFiles> {
  const parsed = escalationReportSchema.safeParse(report);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error, ['escalation']);
    throw new GoalLoopError(
      'STATE_CORRUPT',
      `${paths.state}: its escalation report does not match its schema: ${issues.map(formatIssue).join('; ')}`,
      { issues },
    );
  }
  const files = escalationFiles(paths);
  await fence();
  await fs.writeText(files.json, `${JSON.stringify(parsed.data, null, 2)}\n`);
  await fence();
  await fs.writeText(files.markdown, renderEscalationMarkdown(parsed.data));
  return files;
}

/** True when an escalated session lacks one of its report files (a crash right after its record was committed). @internal */
export async function escalationFilesMissing(
  fs: FileSystem,
  paths: SessionPlace,
  state: Pick<FixSessionState, 'status'>,
): Promise<boolean> {
  const files = escalationFilesOf(paths, state);
  if (files === null) return false;
  const [json, markdown] = await Promise.all([fs.stat(files.json), fs.stat(files.markdown)]);
  return json === null || markdown === null;
}
