import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

/** A whole second (the Node filesystem keeps a modification time set in whole seconds exactly). */
export const NOW_S = Math.floor(Date.now() / 1000) * 1000;

/** A filesystem whose files' modification times a test sets, and the reader's clock (starting at {@link NOW_S}). */
export interface DatedFs {
  readonly name: string;
  readonly fs: FileSystem;
  readonly clock: ManualClock;
  /** Writes `text` at `path`, last modified at `mtimeMs` as the filesystem reports it. */
  readonly writeAt: (path: string, text: string, mtimeMs: number) => Promise<void>;
  /** Sets the modification time of what is at `path` (memory: files only, by writing them again). */
  readonly dateAt: (path: string, mtimeMs: number) => Promise<void>;
  readonly dispose: () => Promise<void>;
}

// Memory: the filesystem dates each change by the reader's clock, unless a test dates it itself.
async function memory(): Promise<DatedFs> {
  const clock = createManualClock(NOW_S);
  let stamp: number | null = null;
  const fs = createMemoryFileSystem({ now: () => stamp ?? clock.now() });
  const writeAt = async (path: string, text: string, mtimeMs: number) => {
    stamp = mtimeMs;
    try {
      await fs.writeText(path, text);
    } finally {
      stamp = null;
    }
  };
  const dateAt = async (path: string, mtimeMs: number) => writeAt(path, (await fs.readText(path)) ?? '', mtimeMs);
  return { name: 'memory', fs, clock, writeAt, dateAt, dispose: async () => {} };
}

// Node: a fresh temp directory; the kernel dates changes by the real clock, utimes dates them as a test says.
async function node(): Promise<DatedFs> {
  const root = await mkdtemp(join(tmpdir(), 'goal-loop-dated-'));
  const fs = createNodeFileSystem(root);
  const dateAt = (path: string, mtimeMs: number) => utimes(join(root, path), mtimeMs / 1000, mtimeMs / 1000);
  const writeAt = async (path: string, text: string, mtimeMs: number) => {
    await fs.writeText(path, text);
    await dateAt(path, mtimeMs);
  };
  const dispose = () => rm(root, { recursive: true, force: true });
  return { name: 'node', fs, clock: createManualClock(NOW_S), writeAt, dateAt, dispose };
}

/** The memory and the Node filesystem, each with files a test dates. */
export const DATED_FILE_SYSTEMS = [
  { name: 'memory', make: memory },
  { name: 'node', make: node },
] as const;
