import { pushAll } from '../../kit/record.js';
import { diffGitNames, readName } from './header-names.js';

/** Sections per header style (`git` or `plain`): git reads them relative to different folders below the top. @internal */
export interface PatchSections {
  readonly git: number;
  readonly plain: number;
}

/** The header paths, copy/rename sources (git reads them, symlinks included) and sections, or the first refusal. @internal */
export type PatchPathCheck =
  | {
      readonly ok: true;
      readonly paths: readonly string[];
      readonly sources: readonly string[];
      readonly sections: PatchSections;
    }
  | { readonly ok: false; readonly detail: string };

// Header lines naming one path each; `---` and `+++` may name /dev/null (no file on that side).
const NAMED: readonly { readonly start: string; readonly devNull: boolean }[] = [
  { start: '--- ', devNull: true },
  { start: '+++ ', devNull: true },
  { start: 'rename from ', devNull: false },
  { start: 'rename to ', devNull: false },
  { start: 'rename old ', devNull: false },
  { start: 'rename new ', devNull: false },
  { start: 'copy from ', devNull: false },
  { start: 'copy to ', devNull: false },
];
// git reads a mode with strtoul (blanks, sign, any octal), so only the form git writes is let through.
const MODE_LINE = /^(new file mode|new mode|old mode|deleted file mode) (.*)$/;
const INDEX_MODE = /^index [0-9a-f]+\.\.[0-9a-f]+ (.*)$/;
const CANONICAL_MODE = /^[0-7]{6}\s*$/;
// The type bits of a mode, and their value for a symlink (S_IFMT, S_IFLNK).
const TYPE_BITS = 0o170000;
const SYMLINK = 0o120000;
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const DIFF_GIT = 'diff --git ';
// The header lines naming a file git reads to copy or move it.
const SOURCE = /^(?:copy from|rename from|rename old) (.*)$/;

/** Reads diff headers as `git apply` does, refusing paths out of the workspace, `.git` and symlinks; never throws. @internal */
export function checkPatchPaths(patch: string): PatchPathCheck {
  const paths: string[] = [];
  const sources: string[] = [];
  const sections = { git: 0, plain: 0 };
  // Inside a `diff --git` header: its `---`/`+++` lines belong to it, until its first hunk.
  let inGitHeader = false;
  let oldLeft = 0;
  let newLeft = 0;
  const lines = patch.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').replace(/\r$/, '');
    if (oldLeft > 0 || newLeft > 0) {
      const kind = line === '' ? ' ' : line[0];
      if (kind === '\\') continue;
      if (kind === ' ' || kind === '-' || kind === '+') {
        if (kind !== '+') oldLeft -= 1;
        if (kind !== '-') newLeft -= 1;
        continue;
      }
      // Not hunk content: git reports the hunk as corrupt; the line is still read as a header, to be safe.
      oldLeft = 0;
      newLeft = 0;
    }
    const hunk = HUNK.exec(line);
    if (hunk !== null) {
      inGitHeader = false;
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    if (line.startsWith(DIFF_GIT)) {
      sections.git += 1;
      inGitHeader = true;
    } else if (!inGitHeader && line.startsWith('--- ') && plainHeaderAt(lines, index + 1)) sections.plain += 1;
    const problem = headerProblem(line, paths);
    const source = SOURCE.exec(line)?.[1];
    const named = source === undefined ? null : readName(source);
    const fault = named?.includes('\n') === true ? 'a copied or renamed name holding a line break is refused' : problem;
    if (fault !== null) return { ok: false, detail: `line ${index + 1} ("${clip(line)}"): ${fault}` };
    if (named !== null) sources.push(named);
  }
  return { ok: true, paths, sources, sections };
}

// Whether a `---` line is followed by `+++` and a hunk, as git requires to read it as a plain section's header.
function plainHeaderAt(lines: readonly string[], next: number): boolean {
  return (lines[next] ?? '').startsWith('+++ ') && (lines[next + 1] ?? '').startsWith('@@ -');
}

// Why one header line is refused (its paths pushed to `paths` when not), else null.
function headerProblem(line: string, paths: string[]): string | null {
  const mode = modeProblem(line);
  if (mode !== null) return mode;
  if (line.startsWith(DIFF_GIT)) return diffGitProblem(line.slice(DIFF_GIT.length), paths);
  const named = NAMED.find((header) => line.startsWith(header.start));
  if (named === undefined) return null;
  const name = readName(line.slice(named.start.length));
  if (name === null) return 'its quoted path cannot be read';
  // As git reads it: /dev/null may be followed by a timestamp (`diff -u` writes `--- /dev/null\t1970-01-01 …`).
  if (named.devNull && /^\/dev\/null(?:\s|$)/.test(name)) return null;
  // Git ends a ---/+++ name at a tab, or before a timestamp after a space: every such cut is checked and named.
  for (const cut of named.devNull ? cutsOf(name) : [name]) {
    paths.push(cut);
    const problem = pathProblem(cut);
    if (problem !== null) return problem;
  }
  return null;
}

// A name as written, and as cut at its first tab and before each space (distinct, never empty).
function cutsOf(name: string): string[] {
  const cuts = new Set([name, name.split('\t')[0] ?? name]);
  for (let at = name.indexOf(' '); at > 0; at = name.indexOf(' ', at + 1)) cuts.add(name.slice(0, at));
  return [...cuts].filter((cut) => cut !== '');
}

// The names of a `diff --git` line. Unquoted names cannot be told apart at a space, so every word counts as one.
function diffGitProblem(rest: string, paths: string[]): string | null {
  const names = diffGitNames(rest);
  if (names === null) return 'its quoted paths cannot be read';
  pushAll(paths, names);
  for (const name of names) {
    const problem = pathProblem(name);
    if (problem !== null) return problem;
  }
  return null;
}

// Refuses a mode git would not write, or one that makes a symlink; removals of symlinks are caught by the applier.
function modeProblem(line: string): string | null {
  const named = MODE_LINE.exec(line);
  const mode = named?.[2] ?? INDEX_MODE.exec(line)?.[1];
  if (mode === undefined) return null;
  if (!CANONICAL_MODE.test(mode))
    return `its mode "${clip(mode)}" is not written as git writes one (six octal digits after one space)`;
  const removed = named?.[1] === 'old mode' || named?.[1] === 'deleted file mode';
  if (!removed && (Number.parseInt(mode, 8) & TYPE_BITS) === SYMLINK)
    return 'the patch would make a symlink, which this applier never creates';
  return null;
}

// Why a path named by the patch is refused, else null.
function pathProblem(path: string): string | null {
  if (path.startsWith('/'))
    return `the absolute path "${clip(path)}" is refused: the patch may only touch the workspace`;
  // `a//etc/x` loses its first folder to git's -p1 and becomes absolute.
  if (path.includes('//')) return `the path "${clip(path)}" holds an empty folder name ("//") and is refused`;
  const segments = path.split('/');
  if (segments.includes('..')) return `the path "${clip(path)}" climbs out with ".." and is refused`;
  if (segments.some((segment) => segment.toLowerCase() === '.git'))
    return `the path "${clip(path)}" points into .git and is refused`;
  return null;
}

// A line or path cut for a detail.
function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
