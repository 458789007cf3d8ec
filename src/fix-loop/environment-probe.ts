import { z } from 'zod';
import { refuseInvalidOptions } from '../errors.js';
import { joinPath, parentPath } from '../kit/paths.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import type { EnvironmentProbe, ProbeInput, ProbeResult } from './host-ports.js';
import { port } from './options.js';
import { findWorkspace } from './workspace.js';

/**
 * Options of {@link createEnvironmentProbe}.
 *
 * @public
 */
export interface EnvironmentProbeOptions {
  /** The project's filesystem (the workspace lies inside its root). */
  readonly fs: FileSystem;
  /** Runs `command -v <program>` in the workspace. */
  readonly commands: CommandRunner;
  /** Time limit of each `command -v` run, in ms (default 10 000). */
  readonly timeoutMs?: number;
}

// Every option has an entry (checked against EnvironmentProbeOptions), so a key outside it is a misspelling.
const optionShape = {
  fs: port('fs', ['stat', 'readText', 'realpath']),
  commands: port('commands', ['run']),
  timeoutMs: z.int({ error: 'timeoutMs must be a positive integer' }).min(1).optional(),
} satisfies Record<keyof EnvironmentProbeOptions, z.ZodType>;

/**
 * The default {@link EnvironmentProbe}: the workspace exists (a directory
 * inside the root), the programs of the build and test commands are on PATH
 * (`command -v` through the command runner, in the workspace), and
 * `node_modules` is present when the workspace's package.json declares
 * dependencies. Like Node's module resolution, a `node_modules` in the
 * workspace or in any folder above it, up to the filesystem's `/`, counts
 * (a monorepo that hoists its dependencies to its top; the FileSystem port
 * reaches folders above its root by absolute paths, and only `stat` is asked
 * of them). Each missing requirement is one sentence naming what and where,
 * and says how to set it up where it can (`npm ci`). An unknown option key
 * or a wrong value throws `INVALID_OPTIONS` naming its path.
 *
 * @public
 */
export function createEnvironmentProbe(options: EnvironmentProbeOptions): EnvironmentProbe {
  refuseInvalidOptions('createEnvironmentProbe', optionShape, options);
  return defaultProbe(options);
}

/**
 * {@link createEnvironmentProbe} without the option check, for the orchestrator, which makes one per step from
 * options it has checked already. @internal
 */
export function defaultProbe(options: EnvironmentProbeOptions): EnvironmentProbe {
  const { fs, commands } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    async probe(input: ProbeInput): Promise<ProbeResult> {
      const workspace = await findWorkspace(fs, input.workspacePath);
      if (!workspace.ok) return { missing: [workspace.detail] };
      const missing: string[] = [];
      for (const command of [input.buildCommand, input.testCommand]) {
        const program = command === undefined ? null : programOf(command);
        if (program === null || missing.some((line) => line.startsWith(`program "${program}"`))) continue;
        const found = await commands.run(`command -v ${shellQuote(program)}`, {
          cwd: workspace.absolute,
          timeoutMs,
          signal: input.signal,
        });
        if (found.exitCode !== 0)
          missing.push(`program "${program}" (of the command "${command}") is not on PATH in ${workspace.absolute}`);
      }
      const modules = await nodeModulesMissing(fs, workspace.path, workspace.absolute);
      if (modules !== null) missing.push(modules);
      return { missing };
    },
  };
}

/**
 * The program a shell command line runs first: its first word after any
 * `NAME=value` assignments, subshell and group openers (`(`, `{`) and `!`,
 * unquoted, up to the first operator (`;`, `&`, `|`, `)`); `null` for an
 * empty line or an arithmetic command (`((`). `(exit 1)` runs `exit`, never
 * a program named `(exit`. Pure.
 *
 * @internal
 */
export function programOf(command: string): string | null {
  const line = command.trim();
  if (line.startsWith('((')) return null;
  // Words end at blanks and at the operators `;`, `&`, `|`, `(` and `)`, outside quotes, as the shell reads them.
  const words = line.match(/(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'";&|()])+/g) ?? [];
  const first = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) && word !== '{' && word !== '!');
  if (first === undefined) return null;
  const unquoted = first.replace(/'([^']*)'|"((?:[^"\\]|\\.)*)"/g, (_, single, double) => single ?? double);
  return unquoted === '' ? null : unquoted;
}

// A word the shell reads literally.
function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

// A sentence when the workspace's package.json declares dependencies but no node_modules is found in the workspace
// or any folder above it (absolute paths: the port reaches past its root, as Node's resolution does); else null.
async function nodeModulesMissing(fs: FileSystem, path: string, absolute: string): Promise<string | null> {
  const text = await fs.readText(joinPath(path, 'package.json'));
  if (text === null) return null;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return null; // the build or the tests report a broken manifest; it is no missing requirement
  }
  if (!declaresDependencies(manifest)) return null;
  for (let folder = absolute; ; folder = parentPath(folder)) {
    // A folder above that cannot be read holds no usable node_modules; it is not the probe's failure.
    const modules = await fs.stat(joinPath(folder, 'node_modules')).catch(() => null);
    if (modules !== null && modules.type !== 'file') return null;
    if (parentPath(folder) === folder) break;
  }
  return `node_modules is missing in ${absolute} and every folder above it, though its package.json declares dependencies (run npm ci there)`;
}

// True when a parsed package.json names at least one dependency or dev dependency.
function declaresDependencies(manifest: unknown): boolean {
  if (typeof manifest !== 'object' || manifest === null) return false;
  const record = manifest as Record<string, unknown>;
  return ['dependencies', 'devDependencies'].some((field) => {
    const value = record[field];
    return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
  });
}
