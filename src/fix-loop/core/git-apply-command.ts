// The shell command that applies a patch with git. The patch reaches `git apply` through the environment, never
// through a shell word or a temporary file: split into variables the command prints back in order.
import type { PatchSections } from './patch-paths.js';

// Characters per environment variable: at most 3 UTF-8 bytes each, so a chunk stays far below Linux's
// 128 KiB limit on one environment string.
const CHUNK_CHARS = 32_768;
/**
 * The longest patch passed to git, in characters: the whole patch must fit in the environment with room to spare
 * (Linux allows about 2 MiB in all). @internal
 */
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

// Below a repository's top git reads `diff --git` sections from the top (so the workspace goes in --directory)
// and plain ones from the folder it runs in (--directory would add the workspace twice); null for both styles.
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

// A shell loop running `body` on "$f" for each path git would touch (numstat -z records: `added<TAB>deleted<TAB>path`,
// a rename an empty path then both names, NUL-separated, from the repository's top, the workspace's folder cut off).
function eachTouchedPath(print: string, directory: string, body: string): string {
  const strip = `f="\${f#*\t*\t}"; f="\${f#"$${PREFIX_VARIABLE}"}"`;
  return `${print} | git apply --numstat -z${directory} | tr '\\000' '\\n' | while IFS= read -r f; do ${strip}; if [ -n "$f" ]; then ${body}; fi; done`;
}

// Prints the first folder or file on the way to each copy or rename source that is a symlink (git would copy or
// move the link itself, or read through it).
const linkedSources = (names: readonly string[]): string =>
  names.length === 0
    ? 'true'
    : `printf '%s\\n' ${names.map((name) => `"$${name}"`).join(' ')} | while IFS= read -r f; do p=; rest="$f"; while [ -n "$rest" ]; do seg="\${rest%%/*}"; if [ "$seg" = "$rest" ]; then rest=; else rest="\${rest#*/}"; fi; p="\${p:+$p/}$seg"; if [ -L "$p" ]; then printf '%s\\n' "$p"; break; fi; done; done`;

// One line per path: its name and kind (`absent`, `link`, `other` for a folder, `file`, `file+x` when executable).
const KIND = `if [ -L "$f" ]; then s=link; elif [ -f "$f" ]; then s=file; if [ -x "$f" ]; then s="$s+x"; fi; elif [ -e "$f" ]; then s=other; else s=absent; fi; printf '%s\\t%s\\n' "$f" "$s"`;
// The regular files' names, for one git hash-object run over all of them.
const REGULAR = `if [ -f "$f" ] && [ ! -L "$f" ]; then printf '%s\\n' "$f"; fi`;

/**
 * What applies `patch` with git in a workspace `prefix` below its repository's top (`''` at the top or outside a
 * repository): `command` pipes it to `git apply --verbose` (append ` --check` to only check it); `links` prints, one
 * per line, each path git would touch that is a symlink in the workspace, and each symlink on the way to a copy's or
 * rename's source (`sources`), as git itself reads the patch's names
 * (`git apply --numstat`: a tab or a timestamp ending a name, the folders it drops below the top) — git follows an
 * existing symlink when a patch changes it, so a patch without any mode line can point a tracked link anywhere;
 * `env` holds the patch for both. Null when the patch mixes both header styles there (git would read them relative
 * to different folders). Pure. @internal
 */
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

/**
 * The shell commands of {@link gitApplyCommand}: `command` applies (append ` --check`, ` --reverse`), `links` lists
 * the symlinks the patch would touch or read, `fingerprint` prints a hash of what each touched path holds (to check
 * a revert restored it), and `env` carries the patch to all three. @internal
 */
export interface GitApplyCommand {
  readonly command: string;
  readonly links: string;
  readonly fingerprint: string;
  readonly env: Readonly<Record<string, string>>;
}
