import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach } from 'vitest';

// The setup of the Node filesystem tests: a fresh temp directory as the root, real named pipes, and timing a call
// that must fail fast.

/** Makes a fresh temp directory as a root. */
export const freshRoot = (): Promise<string> => mkdtemp(join(tmpdir(), 'goal-loop-fs-'));
/** Makes a real named pipe with mkfifo(1). */
export const mkfifo = async (path: string): Promise<void> => void execFileSync('mkfifo', [path]);
/** What a promise rejected with (undefined when it resolved), and how long it took to settle. */
export const settle = async (operation: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> => {
  const started = performance.now();
  const error = await operation().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { error, ms: performance.now() - started };
};

/** The root of the current test (set by {@link useFreshRoot}). */
export let root: string;

/** Makes {@link root} a fresh temp directory before each test of the calling file, and removes it after. */
export function useFreshRoot(): void {
  beforeEach(async () => {
    root = await freshRoot();
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
}
