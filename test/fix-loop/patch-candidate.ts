import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';

// Candidates carrying unified diffs, for the git patch applier tests.

/** Runs a program (git) without a shell, resolving with its output. */
export const run = promisify(execFile);
/** A signal that never aborts. */
export const signal: AbortSignal = new AbortController().signal;
/** A candidate fix, with the patch when one is given. */
export const candidate = (patch?: string): FixCandidate => ({
  description: 'fix',
  confidence: 0.9,
  mutationType: 'auto',
  ...(patch === undefined ? {} : { patch }),
});

/** A unified diff replacing every line of `name` (lines `before`) with `after`. */
export function diff(name: string, before: readonly string[], after: readonly string[]): string {
  return [
    `diff --git a/${name} b/${name}`,
    `--- a/${name}`,
    `+++ b/${name}`,
    `@@ -1,${before.length} +1,${after.length} @@`,
    ...before.map((line) => `-${line}`),
    ...after.map((line) => `+${line}`),
    '',
  ].join('\n');
}
