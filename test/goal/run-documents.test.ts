// The JSON documents an evaluation reads through a path the containment rule resolved: what each state becomes.
import { describe, expect, it } from 'vitest';
import { readJsonDocument } from '../../src/goal/run-documents.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

describe('readJsonDocument', () => {
  const fs = createMemoryFileSystem({ files: { 'm.json': '{"score": 3}', 'bad.json': '{"score": ' } });

  it('reads a regular file as JSON, and says what is wrong with anything else at the path', async () => {
    expect(await readJsonDocument(fs, { state: 'present', path: 'm.json', type: 'file' })).toEqual({
      state: 'present',
      document: { score: 3 },
    });
    expect(await readJsonDocument(fs, { state: 'present', path: 'm', type: 'directory' })).toEqual({
      state: 'malformed',
      detail: 'm is a directory, not a regular file',
    });
    expect(await readJsonDocument(fs, { state: 'present', path: 'pipe', type: 'other' })).toEqual({
      state: 'malformed',
      detail: 'pipe is a FIFO, socket or device, not a regular file',
    });
    expect(await readJsonDocument(fs, { state: 'missing', path: 'gone.json' })).toEqual({
      state: 'missing',
      detail: 'gone.json does not exist',
    });
    expect(await readJsonDocument(fs, { state: 'present', path: 'bad.json', type: 'file' })).toMatchObject({
      state: 'malformed',
      detail: expect.stringMatching(/^bad\.json: /),
    });
  });

  it('keeps why a path was refused, and whether the containment rule gave a reason', async () => {
    const refused = { state: 'refused', reason: 'symlink', detail: 'path "x" leads out' } as const;
    expect(await readJsonDocument(fs, refused)).toEqual(refused);
    expect(await readJsonDocument(fs, { state: 'refused', detail: 'no' })).toEqual({ state: 'refused', detail: 'no' });
  });
});
