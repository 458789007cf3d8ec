import { describe, expect, it } from 'vitest';
import { resolveContainedPath } from '../../src/runtime/containment.js';
import { fs, LAYOUTS, useLayout } from './containment-layout.js';

// resolveContainedPath refuses what leads out of the project: `..` escapes, absolute paths outside the root,
// symlinks out, empty paths.

describe.each(LAYOUTS)('containment on the %s filesystem', (_name, makeFixture) => {
  useLayout(makeFixture);

  it('refuses ".." escapes before touching the filesystem, naming the path', async () => {
    for (const path of ['../outside/secret.txt', 'src/../../outside/secret.txt', '..']) {
      const fact = await resolveContainedPath(fs, path);
      expect(fact.state).toBe('refused');
      expect(fact.state === 'refused' && fact.detail).toContain(`"${path}"`);
    }
  });

  it('accepts absolute paths inside the root and refuses those outside', async () => {
    expect(await resolveContainedPath(fs, `${fs.root}/src/a.ts`)).toEqual({
      state: 'present',
      path: 'src/a.ts',
      type: 'file',
    });
    expect(await resolveContainedPath(fs, fs.root)).toEqual({ state: 'present', path: '.', type: 'directory' });
    for (const path of ['/etc/passwd', `${fs.root}x/a.ts`, `${fs.root}/../outside/secret.txt`]) {
      const fact = await resolveContainedPath(fs, path);
      expect(fact).toMatchObject({ state: 'refused' });
      expect(fact.state === 'refused' && fact.detail).toContain(path);
    }
  });

  it('refuses symlinks that lead out, also toward missing files under them', async () => {
    for (const path of [
      'link-out/secret.txt',
      'file-out',
      'link-out',
      'link-out/missing.txt',
      'link-out/deeper/missing.txt',
    ]) {
      const fact = await resolveContainedPath(fs, path);
      expect(fact, path).toMatchObject({ state: 'refused' });
      expect(fact.state === 'refused' && fact.detail).toContain(`"${path}"`);
      expect(fact.state === 'refused' && fact.detail).toContain('symlink');
    }
  });

  it('refuses empty paths', async () => {
    expect(await resolveContainedPath(fs, '')).toMatchObject({ state: 'refused' });
    expect(await resolveContainedPath(fs, '  ')).toMatchObject({ state: 'refused' });
  });
});
