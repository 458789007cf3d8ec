// The Node adapter's appends: descriptors kept open per file, so a session's appends to its log are one stat and one
// write each rather than an open, an fstat, a write and a close on the thread pool.
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { APPEND_FLAGS, notRegular } from './file-io.js';
import { type KnownDirectories, writeAllSync } from './quick-write.js';

// The most descriptors kept open; the longest unused is closed for a new one.
const MAX_OPEN = 8;

interface OpenAppend {
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
}

/**
 * Appends through kept descriptors (`O_APPEND`, so each write lands at the end whoever else appends). A descriptor is
 * used only while the path still names the file it was opened on (a stat of the path, symlinks followed): a file
 * moved aside, removed or replaced is opened afresh, and that open refuses anything but a regular file.
 *
 * @internal
 */
export class AppendHandles {
  private readonly open = new Map<string, OpenAppend>();

  constructor(private readonly dirs: KnownDirectories) {}

  /** Appends `bytes` to `target` (native absolute path; `path` names it in errors), creating it and its folder. */
  append(target: string, path: string, bytes: Uint8Array): void {
    writeAllSync(this.handle(target, path).fd, bytes);
  }

  // The kept descriptor of `target` while the path still names its file, else a new one.
  private handle(target: string, path: string): OpenAppend {
    const kept = this.open.get(target);
    if (kept !== undefined) {
      const now = fs.statSync(target, { throwIfNoEntry: false });
      if (now !== undefined && now.ino === kept.ino && now.dev === kept.dev) return kept;
      this.drop(target, kept);
    }
    const fd = this.dirs.within(nodePath.dirname(target), () => fs.openSync(target, APPEND_FLAGS, 0o666));
    let stats: fs.Stats;
    try {
      stats = fs.fstatSync(fd);
      if (!stats.isFile()) throw notRegular(stats, 'append', path);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    if (this.open.size >= MAX_OPEN) {
      const [oldest, entry] = this.open.entries().next().value as [string, OpenAppend];
      this.drop(oldest, entry);
    }
    const opened = { fd, dev: stats.dev, ino: stats.ino };
    this.open.set(target, opened);
    return opened;
  }

  // Closes a kept descriptor (a failed close of a descriptor only appended to changes nothing written).
  private drop(target: string, entry: OpenAppend): void {
    this.open.delete(target);
    try {
      fs.closeSync(entry.fd);
    } catch {
      // Nothing to do: the writes already went through.
    }
  }
}
