import type { FileStat, FileSystem } from '../ports/file-system.js';

/** A record the library writes is a few hundred bytes, so a longer file is no lock record. @internal */
export const LOCK_RECORD_MAX_BYTES = 65_536;

/** A lock path's `text` (`null`: nothing there; `''`: cannot be a record), or what non-file is there. @internal */
export type LockFileReading = { readonly text: string | null } | { readonly notAFile: string };

// Fatal on bad UTF-8 and keeps the BOM, so JSON.parse refuses it as for readText.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// What is at a path instead of a regular file, by its own stat (a symlink is not followed).
const NOT_A_FILE: Readonly<Record<FileStat['type'], string | null>> = {
  file: null,
  directory: 'a directory',
  other: 'a FIFO, socket or device',
  symlink: 'a symlink to something that cannot be read as a file',
};

// What a symlink to nothing is called in a message.
const DANGLING = 'a symlink to nothing (its target is gone)';

/** Reads at most the record cap plus one byte; a non-file is `notAFile`, other failures are thrown. @internal */
export async function readLockFile(fs: FileSystem, path: string): Promise<LockFileReading> {
  let bytes: Uint8Array | null;
  try {
    bytes = await fs.readBytes(path, 0, LOCK_RECORD_MAX_BYTES + 1);
  } catch (error) {
    const stat = await fs.stat(path).catch(() => null);
    const notAFile = stat === null ? null : NOT_A_FILE[stat.type];
    if (notAFile === null) throw error;
    return { notAFile };
  }
  // A dangling symlink reads as nothing but is still there, and no rename replaces it.
  if (bytes === null)
    return (await fs.stat(path).catch(() => null))?.type === 'symlink' ? { notAFile: DANGLING } : { text: null };
  if (bytes.length > LOCK_RECORD_MAX_BYTES) return { text: '' };
  try {
    return { text: decoder.decode(bytes) };
  } catch {
    return { text: '' };
  }
}

/** The library never replaces or removes a non-file at a lock path, so the message asks a person to. @internal */
export function notAFileMessage(label: string, notAFile: string): string {
  return (
    `${label} is ${notAFile}, not a lock file. goal-loop only ever writes a regular file there and never replaces ` +
    'or removes anything else: remove it by hand (no loop can take this run until then).'
  );
}

/** When the newest regular file at `paths` last changed, or `null` when none is there. @internal */
export async function latestChange(fs: FileSystem, paths: readonly string[]): Promise<number | null> {
  let latest: number | null = null;
  for (const path of paths) {
    const stat = await fs.stat(path);
    if (stat?.type === 'file') latest = Math.max(latest ?? stat.mtimeMs, stat.mtimeMs);
  }
  return latest;
}
