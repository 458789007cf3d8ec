// The patch reaches `git apply` through environment variables, never a shell word or temp file.
import type { PatchSections } from './patch-paths.js';

// At most 3 UTF-8 bytes a character: far below Linux's 128 KiB per environment string.
const CHUNK_CHARS = 32_768;
/** The whole patch must fit in the environment (about 2 MiB on Linux) with room to spare. @internal */
export const MAX_PATCH_CHARS = 1_048_576;
const PREFIX = 'GOAL_LOOP_PATCH_';

// The patch split into environment variables, never splitting a surrogate pair.
function patchEnvironment(patch: string): Record<string, string> {
  const env: Record<string, string> = {};
  let start = 0;
  for (let index = 0; start < patch.length; index++) {
    let end = Math.min(patch.length, start + CHUNK_CHARS);
    const last = patch.charCodeAt(end - 1);
    if (end < patch.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    env[`${PREFIX}${index}`] = patch.slice(start, end);
    start = end;
  }
  return env;
}

// The shell command that prints the patch held in `env` (as patchEnvironment split it) to its output.
function printPatch(env: Readonly<Record<string, string>>): string {
  return `printf '%s' ${Object.keys(env)
    .map((name) => `"$${name}"`)
    .join(' ')}`;
}

// Below the top git reads `diff --git` sections from the top and plain ones from here; null when both are present.
function directoryOption(prefix: string, sections: PatchSections): string | null {
  if (prefix === '' || sections.git === 0) return '';
  return sections.plain === 0 ? ` --directory=${shellQuote(prefix)}` : null;
}

// A word the shell reads literally.
function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

// The variable holding the workspace's folder in its repository, which git's numstat paths start with.
const PREFIX_VARIABLE = 'GOAL_LOOP_WORKSPACE_PREFIX';
// The variables holding the sources of the patch's copies and renames, one per line, in chunks.
const SOURCES_PREFIX = 'GOAL_LOOP_SOURCES_';

// The sources in variables of at most CHUNK_CHARS characters each, split between lines.
function sourcesEnvironment(sources: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  let chunk: string[] = [];
  let size = 0;
  const flush = () => {
    if (chunk.length > 0) env[`${SOURCES_PREFIX}${Object.keys(env).length}`] = chunk.join('\n');
    chunk = [];
    size = 0;
  };
  for (const source of sources) {
    if (size + source.length + 1 > CHUNK_CHARS) flush();
    chunk.push(source);
    size += source.length + 1;
  }
  flush();
  return env;
}

// Runs `body` on "$f" for each path git would touch (from `--numstat -z`, relative to the repository's top).
function eachTouchedPath(print: string, directory: string, body: string): string {
  const strip = `f="\${f#*\t*\t}"; f="\${f#"$${PREFIX_VARIABLE}"}"`;
  return `${print} | git apply --numstat -z${directory} | tr '\\000' '\\n' | while IFS= read -r f; do ${strip}; if [ -n "$f" ]; then ${body}; fi; done`;
}

// Symlinks on the way to copy/rename sources: git would copy the link or read through it.
const linkedSources = (names: readonly string[]): string =>
  names.length === 0
    ? 'true'
    : `printf '%s\\n' ${names.map((name) => `"$${name}"`).join(' ')} | while IFS= read -r f; do p=; rest="$f"; while [ -n "$rest" ]; do seg="\${rest%%/*}"; if [ "$seg" = "$rest" ]; then rest=; else rest="\${rest#*/}"; fi; p="\${p:+$p/}$seg"; if [ -L "$p" ]; then printf '%s\\n' "$p"; break; fi; done; done`;

// One line per path: its name and kind (`absent`, `link`, `other` for a folder, `file`, `file+x` when executable).
const KIND = `if [ -L "$f" ]; then s=link; elif [ -f "$f" ]; then s=file; if [ -x "$f" ]; then s="$s+x"; fi; elif [ -e "$f" ]; then s=other; else s=absent; fi; printf '%s\\t%s\\n' "$f" "$s"`;
// The regular files' names, for one git hash-object run over all of them.
const REGULAR = `if [ -f "$f" ] && [ ! -L "$f" ]; then printf '%s\\n' "$f"; fi`;

/** The git commands for `patch` (symlinks touched are listed: git follows them); null when header styles mix. Pure. @internal */
export function gitApplyCommand(
  patch: string,
  prefix: string,
  sections: PatchSections,
  sources: readonly string[] = [],
): GitApplyCommand | null {
  const directory = directoryOption(prefix, sections);
  if (directory === null) return null;
  const env = patchEnvironment(patch);
  const print = printPatch(env);
  const sourceEnv = sourcesEnvironment(sources);
  const touchedLinks = eachTouchedPath(print, directory, `if [ -L "$f" ]; then printf '%s\\n' "$f"; fi`);
  const contents = `${eachTouchedPath(print, directory, REGULAR)} | git hash-object --no-filters --stdin-paths`;
  return {
    command: `${print} | git apply --verbose${directory}`,
    links: `{ ${touchedLinks}; ${linkedSources(Object.keys(sourceEnv))}; }`,
    fingerprint: `{ ${eachTouchedPath(print, directory, KIND)}; ${contents}; } | git hash-object --stdin`,
    env: { ...env, ...sourceEnv, [PREFIX_VARIABLE]: prefix },
  };
}

/** `command` applies, `links` lists symlinks touched, `fingerprint` hashes touched paths (to check a revert). @internal */
export interface GitApplyCommand {
  readonly command: string;
  readonly links: string;
  readonly fingerprint: string;
  readonly env: Readonly<Record<string, string>>;
}
