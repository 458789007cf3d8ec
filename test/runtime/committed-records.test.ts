import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FileSystem } from '../../src/ports/file-system.js';
import { readCommittedRecords, readJsonlText } from '../../src/runtime/committed-records.js';
import { FILE_SYSTEMS, type TestFs } from './helpers.js';

const PATH = 'run/trace.jsonl';
const schema = z.object({ v: z.union([z.number(), z.string()]) });
// Two committed records, then an append of "é…" cut off after the first byte of "é" (a crash mid-write).
const COMMITTED = '{"v":1}\n{"v":"naïve"}\n';
const TORN = '{"v":"é…"}';
const tornSize = Buffer.byteLength(COMMITTED) + Buffer.byteLength('{"v":"') + 1;

describe.each(FILE_SYSTEMS)('JSONL with a torn last line on the $name filesystem', ({ make }) => {
  let t: TestFs;
  let fs: FileSystem;
  beforeEach(async () => {
    t = await make();
    fs = t.fs;
  });
  afterEach(() => t.dispose());

  it('a last line cut inside a character is skipped like any torn line; the committed records are read', async () => {
    await fs.writeText(PATH, COMMITTED + TORN);
    await fs.truncate(PATH, tornSize);
    await expect(fs.readText(PATH)).rejects.toMatchObject({ code: 'IO_ERROR' });
    expect(await readCommittedRecords(fs, PATH, schema)).toEqual([{ v: 1 }, { v: 'naïve' }]);
    const text = (await readJsonlText(fs, PATH)) ?? '';
    expect(text.startsWith(COMMITTED)).toBe(true);
    expect(text.slice(COMMITTED.length)).toBe('{"v":"\uFFFD');
  });

  it('invalid UTF-8 inside a committed line is still the read error, naming the offset', async () => {
    await fs.writeText(PATH, `${COMMITTED}{"v":"é"}\n{"v":3}\n`);
    await fs.truncate(PATH, tornSize);
    await fs.appendText(PATH, '"}\n{"v":3}\n');
    await expect(readCommittedRecords(fs, PATH, schema)).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringContaining(`not valid UTF-8, at byte offset ${tornSize - 1}`),
    });
  });

  it('a file without a torn line reads as readText gives it', async () => {
    await fs.writeText(PATH, COMMITTED);
    expect(await readJsonlText(fs, PATH)).toBe(COMMITTED);
    expect(await readJsonlText(fs, 'run/missing.jsonl')).toBeNull();
  });
});
