import type { FileStat, FileSystem } from '../ports/file-system.js';

/**
 * The most bytes of a lock record file (the lock, a heartbeat file, a
 * takeover claim) that are read: a record the library writes is a few hundred
 * bytes, so a longer file is no lock record, whatever its size.
 *
 * @internal
 */
export const LOCK_RECORD_MAX_BYTES = 65_536;

/**
 * What is at a lock record's path: its `text` (`null` when nothing is there;
 * `''` when the file cannot hold a lock record: longer than
 * {@link LOCK_RECORD_MAX_BYTES}, or not UTF-8), or, as `notAFile`, what is
 * there instead of a regular file.
 *
 * @internal
 */
export type LockFileReading = { readonly text: string | null } | { readonly notAFile: string };

// Strict: bytes that are not UTF-8 are no lock record. The byte order mark is kept, so JSON.parse refuses it as it
// refuses a file read with readText.
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

/**
 * Reads the lock record file at `path` (symlinks followed), never more than
 * {@link LOCK_RECORD_MAX_BYTES} and one byte. A read that fails because
 * something other than a regular file is there is reported as `notAFile`; any
 * other failure (a permission, a device error) is thrown as the filesystem
 * reported it.
 *
 * @internal
 */
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
  // Nothing to read may still be something there: a symlink whose target is gone, which no rename replaces. (A file
  // that appears between the read and the stat is a newcomer's lock: missing when it was read.)
  if (bytes === null)
    return (await fs.stat(path).catch(() => null))?.type === 'symlink' ? { notAFile: DANGLING } : { text: null };
  if (bytes.length > LOCK_RECORD_MAX_BYTES) return { text: '' };
  try {
    return { text: decoder.decode(bytes) };
  } catch {
    return { text: '' };
  }
}

/**
 * What to say of `label` (a lock path) with `notAFile` there: the library
 * writes only regular files at a lock path and neither replaces nor removes
 * anything else, so a person has to.
 *
 * @internal
 */
export function notAFileMessage(label: string, notAFile: string): string {
  return (
    `${label} is ${notAFile}, not a lock file. goal-loop only ever writes a regular file there and never replaces ` +
    'or removes anything else: remove it by hand (no loop can take this run until then).'
  );
}

/**
 * When the newest of the regular files at `paths` last changed, as the
 * filesystem reports it, or `null` when none is there.
 *
 * @internal
 */
export async function latestChange(fs: FileSystem, paths: readonly string[]): Promise<number | null> {
  let latest: number | null = null;
  for (const path of paths) {
    const stat = await fs.stat(path);
    if (stat?.type === 'file') latest = Math.max(latest ?? stat.mtimeMs, stat.mtimeMs);
  }
  return latest;
}
