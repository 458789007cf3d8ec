import type { FileSystem } from '../ports/file-system.js';
import { type AuditEntry, auditEntrySchema } from './contracts/audit.js';

/** Where one fix session lives: `<dir>/<sessionId>/` with its state, audit log and lock. @internal */
export interface SessionPaths {
  readonly dir: string;
  readonly state: string;
  readonly audit: string;
  readonly lock: string;
}

/** The files of one session. Pure. @internal */
export function sessionPaths(dir: string, sessionId: string): SessionPaths {
  const base = `${dir.replace(/\/+$/, '')}/${sessionId}`;
  return { dir: base, state: `${base}/state.json`, audit: `${base}/audit.jsonl`, lock: `${base}/session.lock` };
}

/**
 * The committed entries of a session's audit log, in order. A torn last line
 * (a crash mid-append, never a committed entry) and lines that are not audit
 * entries are skipped.
 *
 * @internal
 */
export async function readAudit(fs: FileSystem, path: string): Promise<AuditEntry[]> {
  const text = await fs.readText(path);
  if (text === null) return [];
  const lines = text.split('\n');
  lines.pop();
  const entries: AuditEntry[] = [];
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = auditEntrySchema.safeParse(value);
    if (parsed.success) entries.push(parsed.data);
  }
  return entries;
}
