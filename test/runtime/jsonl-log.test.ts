import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSystem } from '../../src/ports/file-system.js';
import { visitLinesBackwards } from '../../src/runtime/backward-lines.js';
import { findLastRecord, JsonlLog, readLastSeq } from '../../src/runtime/jsonl-log.js';
import { FILE_SYSTEMS, jsonLines, type TestFs } from './helpers.js';

const LOG = 'run/events.jsonl';
const rec = (seq: number, extra: Record<string, unknown> = {}) => ({ seq, type: 'e', ...extra });
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe.each(FILE_SYSTEMS)('JsonlLog on the $name filesystem', ({ make }) => {
  let t: TestFs;
  let fs: FileSystem;
  beforeEach(async () => {
    t = await make();
    fs = t.fs;
  });
  afterEach(() => t.dispose());

  it('appends each record once: a redelivery of records already in the log appends only the missing ones', async () => {
    const seen: number[] = [];
    expect(await new JsonlLog(fs, LOG, (r: { seq: number }) => seen.push(r.seq)).appendOnce([rec(0), rec(1)])).toBe(2);
    // A new writer (a new process) redelivers an outbox that was half delivered.
    const again = new JsonlLog(fs, LOG, (r: { seq: number }) => seen.push(r.seq));
    expect(await again.appendOnce([rec(1), rec(2), rec(3)])).toBe(2);
    expect(await again.appendOnce([rec(3)])).toBe(0);
    expect((await jsonLines(fs, LOG)).map((r) => (r as { seq: number }).seq)).toEqual([0, 1, 2, 3]);
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('removes a torn last line before the next append: every line parses, the fragment is gone, not glued', async () => {
    await fs.appendText(LOG, `${line(rec(0))}${line(rec(1)).slice(0, 9)}`);
    await new JsonlLog(fs, LOG).appendOnce([rec(1), rec(2)]);
    expect(await fs.readText(LOG)).toBe(line(rec(0)) + line(rec(1)) + line(rec(2)));
  });

  it('an unterminated last line that happens to parse is not a committed record: it is replaced, not trusted', async () => {
    await fs.appendText(LOG, `${line(rec(0))}${JSON.stringify(rec(1))}`);
    expect(await readLastSeq(fs, LOG)).toBe(0);
    await new JsonlLog(fs, LOG).appendOnce([rec(1, { n: 'again' })]);
    expect(await jsonLines(fs, LOG)).toEqual([rec(0), rec(1, { n: 'again' })]);
  });

  it('removes a torn fragment longer than a read chunk, and a log that is only a fragment becomes empty first', async () => {
    await fs.appendText(LOG, `${line(rec(0))}{"seq":1,"pad":"${'x'.repeat(200_000)}`);
    await new JsonlLog(fs, LOG).appendOnce([rec(1)]);
    expect(await jsonLines(fs, LOG)).toEqual([rec(0), rec(1)]);
    await fs.writeText('run/only.jsonl', '{"seq":0,"ty');
    await new JsonlLog(fs, 'run/only.jsonl').appendOnce([rec(0)]);
    expect(await fs.readText('run/only.jsonl')).toBe(line(rec(0)));
  });

  it('keeps a complete log byte for byte and creates a missing one', async () => {
    const before = line({ type: 'foreign' }) + line(rec(0));
    await fs.appendText(LOG, before);
    await new JsonlLog(fs, LOG).appendOnce([rec(1)]);
    expect(await fs.readText(LOG)).toBe(before + line(rec(1)));
    await new JsonlLog(fs, 'run/new/events.jsonl').appendOnce([rec(0)]);
    expect(await fs.readText('run/new/events.jsonl')).toBe(line(rec(0)));
  });
});

describe.each(FILE_SYSTEMS)('reading a log backwards on the $name filesystem', ({ make }) => {
  let t: TestFs;
  let fs: FileSystem;
  beforeEach(async () => {
    t = await make();
    fs = t.fs;
  });
  afterEach(() => t.dispose());

  it('visits every line last first, exactly, across chunk boundaries and split UTF-8 characters', async () => {
    const lines = Array.from({ length: 7 }, (_, i) => `${i}:${'é€'.repeat(9_000 * i + 1)}`);
    await fs.writeText(LOG, `${lines.join('\n')}\n\n`);
    const seen: string[] = [];
    const positions: unknown[] = [];
    await visitLinesBackwards(fs, LOG, (text, position) => {
      seen.push(text);
      positions.push(position);
      return false;
    });
    expect(seen).toEqual([...lines].reverse());
    expect(positions[0]).toEqual({ fromEnd: 0, terminated: true });
    expect(positions[6]).toEqual({ fromEnd: 6, terminated: true });
  });

  it('reports an unterminated last line as such, and stops when asked', async () => {
    await fs.writeText(LOG, 'a\nb\nc');
    const seen: unknown[] = [];
    await visitLinesBackwards(fs, LOG, (text, position) => seen.push([text, position]) === 2);
    expect(seen).toEqual([
      ['c', { fromEnd: 0, terminated: false }],
      ['b', { fromEnd: 1, terminated: true }],
    ]);
  });

  it('readLastSeq: -1 for a missing or foreign-only log; skips lines without seq and torn lines', async () => {
    expect(await readLastSeq(fs, LOG)).toBe(-1);
    await fs.writeText(LOG, `${line({ type: 'foreign' })}`);
    expect(await readLastSeq(fs, LOG)).toBe(-1);
    await fs.writeText(LOG, `${line(rec(4))}${line({ type: 'foreign' })}not json\n[1]\n{"seq":9,"tor`);
    expect(await readLastSeq(fs, LOG)).toBe(4);
  });

  it.each([1e308, -1, 1.5, '3', null, Number.MAX_SAFE_INTEGER])(
    'readLastSeq refuses seq %s: STATE_CORRUPT naming the file, the line and the field',
    async (seq) => {
      await fs.writeText(LOG, `${line(rec(0))}${line({ seq })}${line({ type: 'foreign' })}`);
      const error = await readLastSeq(fs, LOG).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'STATE_CORRUPT' });
      expect((error as Error).message).toContain(LOG);
      expect((error as Error).message).toContain('"seq" of line 2 from the end');
    },
  );

  it('the counter reader gives a picker only safe integers: iteration 1e300 is an error, not a counter', async () => {
    const latest = () =>
      findLastRecord(fs, LOG, (record, counter) => (record.type === 'started' ? counter('iteration') : null));
    await fs.writeText(LOG, `${line({ type: 'started', iteration: 3 })}${line({ type: 'other', iteration: 1e300 })}`);
    expect(await latest()).toBe(3);
    await fs.appendText(LOG, line({ type: 'started', iteration: 1e300 }));
    await expect(latest()).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringMatching(/events\.jsonl: field "iteration" of the last line is 1e\+300/),
    });
  });
});
