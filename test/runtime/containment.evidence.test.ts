import { describe, expect, it } from 'vitest';
import { resolveEvidencePath } from '../../src/runtime/containment.js';
import { fs, LAYOUTS, useLayout } from './containment-layout.js';

// resolveEvidencePath: evidence is a regular file in the run dir or the project, never outside it.

describe.each(LAYOUTS)('containment on the %s filesystem', (_name, makeFixture) => {
  useLayout(makeFixture);

  it('accepts evidence that is a regular file in the run dir first, then the project root', async () => {
    for (const path of [
      'notes.md',
      'artifacts/plan.json',
      'src/a.ts',
      'ev-link',
      '../../src/a.ts',
      `${fs.root}/src/a.ts`,
    ]) {
      const fact = await resolveEvidencePath(fs, 'runs/r1', path);
      expect(fact, path).toMatchObject({ ok: true });
    }
    expect((await resolveEvidencePath(fs, 'runs/r1', 'ev-link')).detail).toContain('"src/a.ts"');
  });

  it('rejects evidence that is missing, a directory, or leads out of the project', async () => {
    const check = (path: string) => resolveEvidencePath(fs, 'runs/r1', path);
    expect(await check('missing.md')).toMatchObject({ ok: false, detail: expect.stringContaining('does not exist') });
    expect(await check('artifacts')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('not a regular file'),
    });
    expect(await check('README.md')).toMatchObject({ ok: false, detail: expect.stringContaining('directory') });
    expect(await check('evidence-out')).toMatchObject({ ok: false, detail: expect.stringContaining('symlink') });
    expect(await check('../../../outside/secret.txt')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('..'),
    });
    expect(await check('/etc/passwd')).toMatchObject({ ok: false });
    expect(await check('')).toMatchObject({ ok: false });
  });
});
