// The shell command that applies a patch with git. The patch reaches `git apply` through the environment, never
// through a shell word or a temporary file: split into variables the command prints back in order.
import type { PatchSections } from './patch-paths.js';

// Characters per environment variable: at most 3 UTF-8 bytes each, so a chunk stays far below Linux's
// 128 KiB limit on one environment string.
const CHUNK_CHARS = 32_768;
/** The longest patch passed to git, in characters: the whole patch must fit in the environment with room to spare (Linux allows about 2 MiB in all). @internal */
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

/**
 * The command that pipes `patch` to `git apply --verbose` (append ` --check` to only check it) run in a workspace
 * `prefix` below its repository's top, and the environment holding the patch; null when the patch mixes both
 * header styles there (git would read them relative to different folders). Pure. @internal
 */
export function gitApplyCommand(
  patch: string,
  prefix: string,
  sections: PatchSections,
): { readonly command: string; readonly env: Readonly<Record<string, string>> } | null {
  const directory = directoryOption(prefix, sections);
  if (directory === null) return null;
  const env = patchEnvironment(patch);
  return { command: `${printPatch(env)} | git apply --verbose${directory}`, env };
}

// The variable holding the paths a symlink query asks about, one per line.
const PATHS = 'GOAL_LOOP_PATCH_PATHS';

/**
 * The command that prints, one per line, which of the paths a patch names are symlinks in the folder it runs in
 * (the workspace), with its environment: each name is asked as written and without each number of its leading
 * folders (git's -p1 reads `a/x` as `x`; for a plain diff below a repository's top it guesses how many to drop).
 * Git follows an existing symlink when a patch changes it, so a patch without any mode line can point a tracked
 * link anywhere. Pure. @internal
 */
export function symlinkQuery(paths: readonly string[]): {
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
} {
  const names = new Set<string>();
  for (const path of paths) {
    names.add(path);
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1))
      if (slash < path.length - 1) names.add(path.slice(slash + 1));
  }
  return {
    command: `printf '%s\\n' "$${PATHS}" | while IFS= read -r f; do if [ -L "$f" ]; then printf '%s\\n' "$f"; fi; done`,
    env: { [PATHS]: [...names].join('\n') },
  };
}
