import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

/** A filesystem to run a persist test on, and how to dispose of it. */
export interface TestFs {
  readonly fs: FileSystem;
  readonly dispose: () => Promise<void>;
}

/** The two filesystems the run machinery must behave alike on: memory, and Node in a fresh temp directory. */
export const FILE_SYSTEMS: readonly { readonly name: string; readonly make: () => Promise<TestFs> }[] = [
  { name: 'memory', make: async () => ({ fs: createMemoryFileSystem(), dispose: async () => {} }) },
  {
    name: 'node',
    make: async () => {
      const root = await mkdtemp(join(tmpdir(), 'goal-loop-persist-'));
      return { fs: createNodeFileSystem(root), dispose: () => rm(root, { recursive: true, force: true }) };
    },
  },
];

/** Wraps a filesystem so that chosen calls fail (a crash at that point) while the others go through. */
export function failing(
  fs: FileSystem,
  fail: (method: keyof FileSystem, args: readonly unknown[]) => boolean,
): FileSystem {
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (fail(key as keyof FileSystem, args)) throw new Error(`crash at ${String(key)}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Wraps a filesystem so that every call first waits a random few macrotasks: concurrent callers interleave. */
export function jittery(fs: FileSystem, random: () => number): FileSystem {
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const ticks = Math.floor(random() * 4);
        for (let i = 0; i < ticks; i++) await new Promise((resolve) => setTimeout(resolve, 0));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A small deterministic pseudo-random source (mulberry32), so a failing interleaving can be replayed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** When the holder of the lock at `path` last beat, as a newcomer reads it: its heartbeat file, else the lock's time. */
export async function beatAt(fs: FileSystem, path: string): Promise<number> {
  const lock = JSON.parse((await fs.readText(path)) ?? '{}') as { token?: string; heartbeat_at: number };
  const beat = await fs.readText(`${path}.beat-${lock.token}`);
  return beat === null ? lock.heartbeat_at : (JSON.parse(beat) as { heartbeat_at: number }).heartbeat_at;
}

/** The lines of a JSONL file, each parsed (a line that does not parse fails the test). */
export async function jsonLines(fs: FileSystem, path: string): Promise<unknown[]> {
  const text = (await fs.readText(path)) ?? '';
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** A filesystem whose chosen calls wait at a gate until the test opens it: a process paused between two steps. */
export interface Gated {
  readonly fs: FileSystem;
  /** Resolves once a chosen call is waiting at the gate. */
  readonly reached: Promise<void>;
  /** Lets the waiting call (and every later one) through. */
  readonly open: () => void;
}

/** Wraps a filesystem so that the calls `stop` picks wait at a gate (once opened, every call goes through). */
export function gated(fs: FileSystem, stop: (method: keyof FileSystem, args: readonly unknown[]) => boolean): Gated {
  let arrive!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  const wrapped = new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (stop(key as keyof FileSystem, args)) {
          arrive();
          await opened;
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { fs: wrapped, reached, open };
}

/** The FileSystem methods that change something on disk: the write points of a crash-point test. */
const MUTATING = ['writeText', 'appendText', 'truncate', 'createExclusive', 'remove', 'rename', 'mkdir'] as const;

/** A FileSystem that counts mutating calls and, from the `failFrom`-th on, throws IO_ERROR (a crash at that write). */
export interface CrashingFileSystem extends FileSystem {
  readonly writes: () => number;
}

/** Wraps a filesystem into a {@link CrashingFileSystem}; without `failFrom` it only counts. */
export function crashing(inner: FileSystem, failFrom = Number.POSITIVE_INFINITY): CrashingFileSystem {
  let count = 0;
  const wrapped: Record<string, unknown> = { writes: () => count };
  for (const name of MUTATING) {
    wrapped[name] = async (...args: unknown[]) => {
      count += 1;
      if (count >= failFrom)
        throw new GoalLoopError('IO_ERROR', `simulated crash at write #${count} (${name} ${String(args[0])})`);
      return (inner[name] as (...a: unknown[]) => Promise<unknown>)(...args);
    };
  }
  return new Proxy(inner, {
    get: (target, key) => (Object.hasOwn(wrapped, key) ? wrapped[key as string] : Reflect.get(target, key)),
  }) as CrashingFileSystem;
}
