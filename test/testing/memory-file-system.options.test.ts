import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GoalLoopError } from '../../src/errors.js';
import { createMemoryFileSystem, type MemoryFileSystemOptions } from '../../src/testing.js';
import { thrownRefusal } from '../kit/option-refusal.js';

const KNOWN = ['root', 'files', 'now', 'maxReadBytes', 'processes'];

// The GoalLoopError creating the filesystem throws (fails the test when it does not throw one).
function refusal(options: unknown): GoalLoopError {
  return thrownRefusal(() => createMemoryFileSystem(options as MemoryFileSystemOptions));
}

describe('createMemoryFileSystem options', () => {
  it('refuses a file map passed as the options, naming each file as an unknown key', () => {
    const error = refusal({ 'a.txt': '', 'src/b.ts': 'x' });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues.map((issue) => issue.path)).toEqual([['a.txt'], ['src/b.ts']]);
    expect(error.issues[0]).toEqual({ code: 'unrecognized_keys', path: ['a.txt'], message: 'unknown option `a.txt`' });
  });

  it.each([
    ['file', 'files'],
    ['Root', 'root'],
    ['maxReadByte', 'maxReadBytes'],
  ])('refuses %s, suggesting %s', (key, suggestion) => {
    expect(refusal({ [key]: undefined }).issues).toEqual([
      { code: 'unrecognized_keys', path: [key], message: `unknown option \`${key}\`; did you mean \`${suggestion}\`?` },
    ]);
  });

  it('refuses wrong values, each at its path', () => {
    const error = refusal({
      root: 'project',
      files: { 'a.txt': 1, 'b.txt': 'ok' },
      now: 5,
      maxReadBytes: -1,
      processes: { host: 7, isGone: () => false },
    });
    expect(error.issues.map((issue) => issue.path)).toEqual([
      ['root'],
      ['files', 'a.txt'],
      ['now'],
      ['maxReadBytes'],
      ['processes'],
    ]);
    expect(refusal({ processes: null }).issues.map((issue) => issue.path)).toEqual([['processes']]);
    expect(refusal({ processes: { host: 'h' } }).issues.map((issue) => issue.path)).toEqual([['processes']]);
    expect(refusal({ files: ['a.txt'] }).issues.map((issue) => issue.path)).toEqual([['files']]);
    expect(refusal(null).issues).toEqual([
      { code: 'invalid_type', path: [], message: 'the options must be an object' },
    ]);
  });

  it('accepts every known option, and no options', async () => {
    const processes = { host: 'build-7', isGone: (pid: number) => pid === 4164 };
    const options: MemoryFileSystemOptions = {
      root: '/repo',
      files: { 'a.txt': 'A' },
      now: () => 7,
      maxReadBytes: 9,
      processes,
    };
    expect(Object.keys(options).sort()).toEqual([...KNOWN].sort());
    const fs = createMemoryFileSystem(options);
    expect(fs.root).toBe('/repo');
    expect(fs.processes).toBe(processes);
    expect(createMemoryFileSystem().processes).toBeUndefined();
    expect(await fs.readText('a.txt')).toBe('A');
    expect(createMemoryFileSystem().root).toBe('/project');
  });

  it('refuses any options object with an extra key outside the known set (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((key) => !KNOWN.includes(key)),
        fc.anything(),
        (key, value) => {
          const options: Record<string, unknown> = { files: { 'a.txt': '' } };
          Object.defineProperty(options, key, { value, enumerable: true });
          const error = refusal(options);
          expect(error.code).toBe('INVALID_OPTIONS');
          expect(error.issues).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', path: [key] }));
        },
      ),
      { numRuns: 200 },
    );
  });
});
