import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createJsonStore } from '../../src/runtime/json-store.js';
import { FILE_SYSTEMS, failing, type TestFs } from './helpers.js';

const PATH = 'run/state.json';
const schema = z.object({ iteration: z.int().min(0), name: z.string() });

describe.each(FILE_SYSTEMS)('createJsonStore on the $name filesystem', ({ make }) => {
  let t: TestFs;
  let fs: FileSystem;
  beforeEach(async () => {
    t = await make();
    fs = t.fs;
  });
  afterEach(() => t.dispose());

  it('a missing file loads as null; a saved value loads back equal, as one JSON document ending in a newline', async () => {
    const store = createJsonStore(fs, PATH, schema);
    expect(await store.load()).toBeNull();
    await store.save({ iteration: 2, name: 'a' });
    expect(await store.load()).toEqual({ iteration: 2, name: 'a' });
    const text = (await fs.readText(PATH)) ?? '';
    expect(JSON.parse(text)).toEqual({ iteration: 2, name: 'a' });
    expect(text.endsWith('\n')).toBe(true);
    expect(await fs.list('run')).toEqual(['state.json']);
  });

  it('a save replaces the whole document; a failed save leaves the previous one intact', async () => {
    const store = createJsonStore(fs, PATH, schema);
    await store.save({ iteration: 1, name: 'first' });
    const broken = createJsonStore(
      failing(fs, (method) => method === 'writeText'),
      PATH,
      schema,
    );
    await expect(broken.save({ iteration: 9, name: 'lost' })).rejects.toThrow();
    expect(await store.load()).toEqual({ iteration: 1, name: 'first' });
    await store.save({ iteration: 3, name: 'x' });
    expect(await fs.readText(PATH)).toBe(`${JSON.stringify({ iteration: 3, name: 'x' }, null, 2)}\n`);
  });

  it('text that is not JSON is STATE_CORRUPT naming the file', async () => {
    await fs.writeText(PATH, '{"iteration": 1,');
    await expect(createJsonStore(fs, PATH, schema).load()).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringContaining(`${PATH} is not valid JSON`),
    });
  });

  it.each([1e300, -1, 1.5, '2'])(
    'a hand-edited counter (iteration %s) is STATE_CORRUPT naming the file and the field',
    async (iteration) => {
      await fs.writeText(PATH, JSON.stringify({ iteration, name: 'a' }));
      const error = await createJsonStore(fs, PATH, schema)
        .load()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'STATE_CORRUPT',
        issues: [expect.objectContaining({ path: ['iteration'] })],
      });
      expect((error as Error).message).toContain(`${PATH} does not match its schema ($.iteration: `);
    },
  );
});
