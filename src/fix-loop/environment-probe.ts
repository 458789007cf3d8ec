import { z } from 'zod';
import { refuseInvalidOptions } from '../errors.js';
import { joinPath, parentPath } from '../kit/paths.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import type { EnvironmentProbe, ProbeInput, ProbeResult } from './host-ports.js';
import { port } from './options.js';
import { findWorkspace } from './workspace.js';

/** Options of {@link createEnvironmentProbe}. @public */
export interface EnvironmentProbeOptions {
  /** The project's filesystem (the workspace lies inside its root). */
  readonly fs: FileSystem;
  /** Runs `command -v <program>` in the workspace. */
  readonly commands: CommandRunner;
  /** Time limit of each `command -v` run, in ms (default 10 000). */
  readonly timeoutMs?: number;
}

const optionShape = {
  fs: port('fs', ['stat', 'readText', 'realpath']),
  commands: port('commands', ['run']),
  timeoutMs: z.int({ error: 'timeoutMs must be a positive integer' }).min(1).optional(),
} satisfies Record<keyof EnvironmentProbeOptions, z.ZodType>;

/**
 * The default {@link EnvironmentProbe}: the workspace is a directory inside the root, the build and test commands'
 * programs are on PATH, and a `node_modules` is in the workspace or a folder above it when its package.json declares
 * dependencies. Each missing requirement is one sentence saying what, where and how to set it up.
 *
 * @public
 */
export function createEnvironmentProbe(options: EnvironmentProbeOptions): EnvironmentProbe {
  refuseInvalidOptions('createEnvironmentProbe', optionShape, options);
  return defaultProbe(options);
}

/** {@link createEnvironmentProbe} without the option check (the orchestrator checked them). @internal */
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

/** The program a shell command line runs first (after assignments, `(`, `{`, `!`); `null` for none. @internal */
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

// Why the workspace lacks node_modules (searched upwards, as Node resolves), or null.
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
