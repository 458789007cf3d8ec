import { describe, expect, it } from 'vitest';
import { resolveContainedPath } from '../../src/runtime/containment.js';
import { fs, LAYOUTS, useLayout } from './containment-layout.js';

// resolveContainedPath inside the project: present and missing paths, however written, from the root or a run dir.

describe.each(LAYOUTS)('containment on the %s filesystem', (_name, makeFixture) => {
  useLayout(makeFixture);

  it('resolves a plain path and the same path written with `.`, `..` and extra slashes alike, on the root and a run dir', async () => {
    const cases: [string, string, string, string][] = [
      ['src/a.ts', '.', './src//a.ts', './'],
      ['notes.md', 'runs/r1', 'x/../notes.md', './runs//r1/'],
      ['artifacts/plan.json', 'runs/r1', 'artifacts/./plan.json', 'runs/r1/.'],
      ['link-in/a.ts', '.', 'src/../link-in/a.ts', 'runs/..'],
      ['link-out/secret.txt', '.', './link-out/secret.txt', '.'],
      ['missing.txt', 'runs/r1', './missing.txt', 'runs/r1/'],
      ['../r1/notes.md', 'runs/r1', '../../runs/r1/./notes.md', 'runs/r1'],
    ];
    for (const [plain, base, written, writtenBase] of cases) {
      const cache = new Map();
      const fact = await resolveContainedPath(fs, plain, { base });
      // A refusal quotes the path as written; only its state must agree.
      const expected = fact.state === 'refused' ? { state: 'refused' } : fact;
      expect(await resolveContainedPath(fs, written, { base: writtenBase })).toMatchObject(expected);
      expect(await resolveContainedPath(fs, plain, { base, cache })).toEqual(fact);
      expect(await resolveContainedPath(fs, written, { base: writtenBase, cache })).toMatchObject(expected);
    }
    expect(await resolveContainedPath(fs, 'link-out/secret.txt')).toMatchObject({ state: 'refused' });
    expect(await resolveContainedPath(fs, '../r1/notes.md', { base: 'runs/r1' })).toEqual({
      state: 'present',
      path: 'runs/r1/notes.md',
      type: 'file',
    });
  });

  it('reports present files and directories with their resolved paths', async () => {
    expect(await resolveContainedPath(fs, 'src/a.ts')).toEqual({ state: 'present', path: 'src/a.ts', type: 'file' });
    expect(await resolveContainedPath(fs, 'src/')).toEqual({ state: 'present', path: 'src', type: 'directory' });
    expect(await resolveContainedPath(fs, './src/../src/a.ts')).toEqual({
      state: 'present',
      path: 'src/a.ts',
      type: 'file',
    });
    expect(await resolveContainedPath(fs, '.')).toEqual({ state: 'present', path: '.', type: 'directory' });
    expect(await resolveContainedPath(fs, 'link-in/a.ts', { base: 'root' })).toEqual({
      state: 'present',
      path: 'src/a.ts',
      type: 'file',
    });
  });

  it('reports missing paths, dangling links included', async () => {
    expect(await resolveContainedPath(fs, 'missing.json')).toEqual({ state: 'missing', path: 'missing.json' });
    expect(await resolveContainedPath(fs, 'src/deeper/missing.json')).toEqual({
      state: 'missing',
      path: 'src/deeper/missing.json',
    });
    expect(await resolveContainedPath(fs, 'dangling')).toEqual({ state: 'missing', path: 'dangling' });
  });

  it('resolves relative paths against a run dir, inside the project', async () => {
    expect(await resolveContainedPath(fs, 'artifacts/plan.json', { base: 'runs/r1' })).toEqual({
      state: 'present',
      path: 'runs/r1/artifacts/plan.json',
      type: 'file',
    });
    expect(await resolveContainedPath(fs, '../../src/a.ts', { base: 'runs/r1' })).toEqual({
      state: 'present',
      path: 'src/a.ts',
      type: 'file',
    });
    expect(await resolveContainedPath(fs, '../../../x', { base: 'runs/r1' })).toMatchObject({ state: 'refused' });
  });
});
