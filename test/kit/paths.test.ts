import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isAbsolutePath,
  isInside,
  joinPath,
  normalizePath,
  parentPath,
  relativePath,
  resolvePath,
} from '../../src/kit/paths.js';

const segment = fc.constantFrom('a', 'b', 'c.json', '.', '..', '', '...', '..a', 'x y');
const relative = fc
  .array(segment, { maxLength: 8 })
  .map((parts) => parts.join('/'))
  .filter((p) => !p.startsWith('/'));
const path = fc.tuple(fc.boolean(), relative).map(([absolute, rest]) => (absolute ? `/${rest}` : rest));
const cleanAbsolute = fc
  .array(fc.constantFrom('a', 'b', 'c', 'srv', 'project'), { maxLength: 5 })
  .map((parts) => `/${parts.join('/')}`);

describe('normalizePath', () => {
  it.each([
    ['', '.'],
    ['.', '.'],
    ['./', '.'],
    ['a/./b/../c/', 'a/c'],
    ['a//b', 'a/b'],
    ['../a/../../b', '../../b'],
    ['a/..', '.'],
    ['/', '/'],
    ['/x/../../y', '/y'],
    ['//x//', '/x'],
    ['..a/b', '..a/b'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it('agrees with node:path posix.normalize, less a trailing slash', () => {
    const oracle = (p: string): string => posix.normalize(p).replace(/(.)\/$/, '$1');
    fc.assert(fc.property(path, (p) => normalizePath(p) === oracle(p)));
  });

  it('is idempotent', () => {
    fc.assert(fc.property(path, (p) => normalizePath(normalizePath(p)) === normalizePath(p)));
  });

  it('keeps absoluteness and leaves no "." or empty segments', () => {
    fc.assert(
      fc.property(path, (p) => {
        const normal = normalizePath(p);
        expect(isAbsolutePath(normal)).toBe(isAbsolutePath(p));
        if (normal !== '.' && normal !== '/')
          expect(normal.split('/').slice(isAbsolutePath(normal) ? 1 : 0)).not.toContain('.');
        if (normal !== '/') expect(normal.replace(/^\//, '').split('/')).not.toContain('');
      }),
    );
  });
});

// The oracle: same absoluteness, the base's segments prefix the path's, and no `..` follows them.
function segmentsInside(child: string, parent: string): boolean {
  const c = normalizePath(child);
  const p = normalizePath(parent);
  if (isAbsolutePath(c) !== isAbsolutePath(p)) return false;
  const split = (x: string) => x.split('/').filter((s) => s !== '' && s !== '.');
  const cs = split(c);
  const ps = split(p);
  return ps.every((s, i) => cs[i] === s) && cs.length >= ps.length && cs[ps.length] !== '..';
}

describe('isInside', () => {
  it.each([
    ['a/b', '.', true],
    ['.', '.', true],
    ['..', '.', false],
    ['../a', '.', false],
    ['a/../../b', '.', false],
    ['..a/b', '.', true],
    ['a/b/../c', 'a', true],
    ['ab', 'a', false],
    ['/srv/project/x', '/srv/project', true],
    ['/srv/project', '/srv/project', true],
    ['/srv/projectx', '/srv/project', false],
    ['/anything', '/', true],
    ['/srv/project/x', '.', false],
    ['a', '/srv', false],
    ['../..', '..', false],
    ['../a', '..', true],
    ['/', '/', true],
  ])('isInside(%j, %j) is %s', (child, parent, expected) => {
    expect(isInside(child, parent)).toBe(expected);
  });

  it('agrees with a segment-wise oracle, so a path it calls inside never climbs out', () => {
    fc.assert(
      fc.property(path, path, (child, parent) => {
        expect(isInside(child, parent)).toBe(segmentsInside(child, parent));
      }),
      { numRuns: 2_000 },
    );
  });

  it('calls a joined path inside its base exactly when the segment-wise oracle does', () => {
    fc.assert(
      fc.property(path, relative, (base, p) => {
        const joined = joinPath(base, p);
        expect(isInside(joined, base)).toBe(segmentsInside(joined, base));
        if (!p.split('/').includes('..')) expect(isInside(joined, base)).toBe(true);
      }),
    );
  });

  it('agrees with a segment-wise check for absolute paths', () => {
    fc.assert(
      fc.property(cleanAbsolute, path, (root, p) => {
        const resolved = resolvePath(root, p);
        const rootSegments = root.split('/').filter(Boolean);
        const segments = resolved.split('/').filter(Boolean);
        const prefix = rootSegments.every((s, i) => segments[i] === s);
        expect(isInside(resolved, root)).toBe(prefix);
      }),
    );
  });
});

describe('relativePath, resolvePath, parentPath', () => {
  it('relativePath leads from one absolute path to another', () => {
    expect(relativePath('/srv/project', '/srv/project/a/b')).toBe('a/b');
    expect(relativePath('/srv/project', '/srv/project')).toBe('.');
    expect(relativePath('/srv/project', '/srv/other/x')).toBe('../other/x');
    expect(relativePath('/project', '/')).toBe('..');
    fc.assert(
      fc.property(
        cleanAbsolute,
        cleanAbsolute,
        (from, to) => resolvePath(from, relativePath(from, to)) === normalizePath(to),
      ),
    );
  });

  it('resolvePath lets an absolute path stand on its own', () => {
    expect(resolvePath('runs/r1', 'a.json')).toBe('runs/r1/a.json');
    expect(resolvePath('runs/r1', '../r2/a.json')).toBe('runs/r2/a.json');
    expect(resolvePath('runs/r1', '/etc/passwd')).toBe('/etc/passwd');
    expect(joinPath('a', '', '/b')).toBe('a/b');
  });

  it('parentPath climbs one segment', () => {
    expect(parentPath('a/b')).toBe('a');
    expect(parentPath('a')).toBe('.');
    expect(parentPath('/a')).toBe('/');
    expect(parentPath('/')).toBe('/');
    expect(parentPath('..')).toBe('../..');
  });
});
