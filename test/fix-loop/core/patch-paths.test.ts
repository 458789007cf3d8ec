import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPatchPaths } from '../../../src/fix-loop/core/patch-paths.js';

const MODIFY = [
  'diff --git a/src/sum.js b/src/sum.js',
  'index 1111111..2222222 100644',
  '--- a/src/sum.js',
  '+++ b/src/sum.js',
  '@@ -1,3 +1,3 @@',
  ' export function sum(a, b) {',
  '-  return a - b;',
  '+  return a + b;',
  ' }',
  '',
].join('\n');

const detail = (patch: string) => {
  const check = checkPatchPaths(patch);
  return check.ok ? null : check.detail;
};

// C quoting as git writes it: the UTF-8 bytes of every non-ASCII or special character as octal escapes.
const gitQuote = (path: string) =>
  `"${[...new TextEncoder().encode(path)]
    .map((byte) =>
      byte === 0x22 || byte === 0x5c
        ? `\\${String.fromCharCode(byte)}`
        : byte < 0x20 || byte > 0x7e
          ? `\\${byte.toString(8).padStart(3, '0')}`
          : String.fromCharCode(byte),
    )
    .join('')}"`;

// One patch naming `path` in the given kind of header line.
const HEADERS: Record<string, (path: string) => string> = {
  'diff --git a/': (path) => `diff --git a/${path} b/${path}\nnew file mode 100644\n`,
  'diff --git quoted': (path) =>
    `diff --git ${gitQuote(`a/${path}`)} ${gitQuote(`b/${path}`)}\ndeleted file mode 100644\n`,
  '--- a/': (path) => `--- a/${path}\n+++ b/ok.txt\n@@ -1 +1 @@\n-x\n+y\n`,
  '+++ b/': (path) => `--- a/ok.txt\n+++ b/${path}\n@@ -1 +1 @@\n-x\n+y\n`,
  '+++ quoted': (path) => `--- /dev/null\n+++ ${gitQuote(`b/${path}`)}\n@@ -0,0 +1 @@\n+y\n`,
  'rename from': (path) => `diff --git a/ok b/ok2\nrename from ${path}\nrename to ok2\n`,
  'rename to': (path) => `diff --git a/ok b/ok2\nrename from ok\nrename to ${path}\n`,
  'copy from': (path) => `diff --git a/ok b/ok2\ncopy from ${path}\ncopy to ok2\n`,
  'copy to quoted': (path) => `diff --git a/ok b/ok2\ncopy from ok\ncopy to ${gitQuote(path)}\n`,
};

const segment = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_. -]{0,8}$/).filter((s) => s.toLowerCase() !== '.git');

describe('checkPatchPaths', () => {
  it('accepts a plain patch, a new file from /dev/null, a rename and a deleted hunk line reading like a header', () => {
    expect(checkPatchPaths(MODIFY)).toEqual({
      ok: true,
      paths: ['a/src/sum.js', 'b/src/sum.js', 'a/src/sum.js', 'b/src/sum.js'],
      sources: [],
      sections: { git: 1, plain: 0 },
    });
    expect(detail('--- /dev/null\n+++ b/new.js\n@@ -0,0 +1 @@\n+x\n')).toBeNull();
    expect(detail('diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n')).toBeNull();
    expect(detail('--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1 @@\n-- ../../etc/passwd\n+++ /etc/x\n select 1;\n')).toBeNull();
  });

  it('reads a hunk that only removes or only adds lines to its end, whatever its lines read like', () => {
    // Each hunk's lines are content while either side still has lines left: none of them is a header.
    expect(detail('--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +0,0 @@\n--- ../../etc/passwd\n-select 1;\n')).toBeNull();
    expect(detail('--- /dev/null\n+++ b/q.sql\n@@ -0,0 +1,2 @@\n+++ /etc/x\n+select 1;\n')).toBeNull();
  });

  it('accepts the modes git writes, a symlink deleted or turned into a file, and a CRLF line end', () => {
    for (const mode of ['new file mode 100644', 'new file mode 100755\r', 'old mode 100644\nnew mode 100755'])
      expect(detail(`diff --git a/x b/x\n${mode}\n`), mode).toBeNull();
    expect(detail('diff --git a/l b/l\ndeleted file mode 120000\nindex 1234567..0000000\n')).toBeNull();
    expect(detail('diff --git a/l b/l\nold mode 120000\nnew mode 100644\n')).toBeNull();
    expect(detail('diff --git a/x b/x\nindex 1234567..89abcde 100644\n--- a/x\n+++ b/x\n')).toBeNull();
    expect(detail('diff --git a/m b/m\nnew file mode 160000\n')).toBeNull();
  });

  it.each([
    [
      'copy from /etc/passwd',
      'diff --git a/x b/passwd.txt\nsimilarity index 100%\ncopy from /etc/passwd\ncopy to passwd.txt\n',
      'absolute path "/etc/passwd"',
    ],
    [
      'rename from ../..',
      'diff --git a/x b/moved.txt\nrename from ../../outside.txt\nrename to moved.txt\n',
      'climbs out',
    ],
    ['delete ../..', 'diff --git a/../../o.txt b/../../o.txt\ndeleted file mode 100644\n', 'climbs out'],
    ['--- absolute', '--- /etc/shadow\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', 'absolute path "/etc/shadow"'],
    [
      '.git hooks',
      'diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit\nnew file mode 100755\n',
      'points into .git',
    ],
    ['.GIT any case', '--- /dev/null\n+++ b/sub/.GIT/config\n@@ -0,0 +1 @@\n+x\n', 'points into .git'],
    ['quoted ..', 'diff --git "a/\\056\\056/x" "b/\\056\\056/x"\n', 'climbs out'],
    ['bad quoting', 'copy from "abc\\q"\n', 'quoted path cannot be read'],
    [
      'new symlink',
      'diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc\n',
      'symlink',
    ],
    ['file to symlink', 'diff --git a/l b/l\nold mode 100644\nnew mode 120000\n', 'symlink'],
    ['symlink retargeted', 'diff --git a/l b/l\nindex 1234567..89abcde 120000\n--- a/l\n+++ b/l\n', 'symlink'],
    // Git reads a mode with strtoul: blanks before it, a sign, and any value whose type bits say symlink.
    ['a mode after two spaces', 'diff --git a/l b/l\nnew file mode  120000\n', 'not written as git writes one'],
    ['a mode after a tab', 'diff --git a/l b/l\nnew file mode \t120000\n', 'not written as git writes one'],
    ['a signed mode', 'diff --git a/l b/l\nnew file mode +120000\n', 'not written as git writes one'],
    ['a short mode', 'diff --git a/l b/l\nnew mode 0120000\n', 'not written as git writes one'],
    ['an index mode after two spaces', 'diff --git a/l b/l\nindex 1234567..89abcde  120000\n', 'not written'],
    ['a symlink with other permission bits', 'diff --git a/l b/l\nnew file mode 120644\n', 'symlink'],
    ['header after a short hunk', '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\ncopy from /etc/passwd\n', 'absolute'],
  ])('refuses %s', (_name, patch, expected) => {
    expect(detail(patch)).toContain(expected);
  });

  it('counts the sections of each header style as git finds them', () => {
    const sections = (patch: string) => {
      const check = checkPatchPaths(patch);
      return check.ok ? check.sections : null;
    };
    const plain = '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-- a\n+++ b\n k\n';
    expect(sections(plain)).toEqual({ git: 0, plain: 1 });
    // A --- line git does not take as a header: no +++ and hunk after it (here a mail signature).
    expect(sections(`${plain}--- \nsent from a phone\n`)).toEqual({ git: 0, plain: 1 });
    expect(sections(`${MODIFY}--- x\n+++ x\nno hunk\n`)).toEqual({ git: 1, plain: 0 });
    expect(sections(`${MODIFY}${plain}--- /dev/null\n+++ y\n@@ -0,0 +1 @@\n+y\n`)).toEqual({ git: 1, plain: 2 });
    // A git header's own ---/+++ lines, a rename without hunks, prose with --- and no hunk after it.
    expect(sections(`${MODIFY}diff --git a/x b/y\nrename from x\nrename to y\n--- notes\n+++ more\n`)).toEqual({
      git: 2,
      plain: 0,
    });
  });

  it('reads /dev/null followed by a timestamp as no file, as git does; a longer name stays absolute', () => {
    expect(detail('--- /dev/null\t1970-01-01 00:00:00 +0000\n+++ b/n\t2024-05-01\n@@ -0,0 +1 @@\n+n\n')).toBeNull();
    expect(detail('--- /dev/nullx\n+++ b/n\n@@ -0,0 +1 @@\n+n\n')).toContain('absolute path');
  });

  it('refuses an empty folder name, which git -p1 would turn into an absolute path', () => {
    expect(detail('--- a//etc/passwd\n+++ b//etc/passwd\n@@ -1 +1 @@\n-a\n+b\n')).toContain('"//"');
  });

  it('names the line it refuses', () => {
    expect(detail(`${MODIFY}diff --git a/x b/y\ncopy from /etc/passwd\n`)).toMatch(
      /^line 11 \("copy from \/etc\/passwd"\)/,
    );
  });

  it('never throws, whatever the text', () => {
    const headerish = fc.constantFrom(
      'diff --git ',
      '--- ',
      '+++ ',
      'copy from ',
      'rename to ',
      '@@ -1,2 +1 @@',
      '"',
      '\\',
      '\r',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), headerish), { maxLength: 30 }), (parts) => {
        const check = checkPatchPaths(parts.join(''));
        expect(typeof check.ok).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(() => checkPatchPaths(text)).not.toThrow();
      }),
    );
  });

  it('refuses any path with a ".." segment in any header, quoted or not', () => {
    const withDotDot = fc
      .tuple(fc.array(segment, { maxLength: 3 }), fc.array(segment, { maxLength: 3 }))
      .map(([before, after]) => [...before, '..', ...after].join('/'));
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(HEADERS)), withDotDot, (kind, path) => {
        expect(detail(HEADERS[kind]?.(path) ?? '')).toMatch(/climbs out|cannot be read/);
      }),
    );
  });

  it('accepts any plain relative path in every header', () => {
    const plain = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(HEADERS)), plain, (kind, path) => {
        expect(detail(HEADERS[kind]?.(path) ?? '')).toBeNull();
      }),
    );
  });
});
