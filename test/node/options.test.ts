import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecaCommandRunner, createNodeFileSystem } from '../../src/node.js';
import { expectUnknownKey, refusal, refusedPaths } from '../kit/option-refusal.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-node-options-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createExecaCommandRunner options', () => {
  it.each([
    ['maxOutputByte', 'maxOutputBytes'],
    ['MaxOutputBytes', 'maxOutputBytes'],
    ['maxOutputBtyes', 'maxOutputBytes'],
  ])('refuses %s, naming its path and suggesting %s', async (key, suggestion) => {
    const error = await expectUnknownKey(() => createExecaCommandRunner({ [key]: 100 } as never), [key], suggestion);
    expect(error.message).toContain('createExecaCommandRunner');
  });

  it('refuses an unknown key with no near option, without a suggestion', async () => {
    await expectUnknownKey(() => createExecaCommandRunner({ shell: '/bin/zsh' } as never), ['shell']);
  });

  it.each([
    [-1, 'maxOutputBytes must be a non-negative integer (got -1)'],
    [1.5, 'maxOutputBytes must be a non-negative integer (got 1.5)'],
    ['1000', 'maxOutputBytes must be a non-negative integer (got "1000")'],
    [null, 'maxOutputBytes must be a non-negative integer (got null)'],
  ])('refuses maxOutputBytes %j at its path', async (value, message) => {
    const error = await refusal(() => createExecaCommandRunner({ maxOutputBytes: value as number }));
    expect(error.issues).toEqual([{ code: 'invalid_value', path: ['maxOutputBytes'], message }]);
  });

  it('refuses options that are not an object, and lists every issue at once', async () => {
    expect(await refusedPaths(() => createExecaCommandRunner(65_536 as never))).toEqual([[]]);
    expect(
      await refusedPaths(() => createExecaCommandRunner({ maxOutputByte: 1, maxOutputBytes: -1 } as never)),
    ).toEqual([['maxOutputByte'], ['maxOutputBytes']]);
  });

  it('still runs with valid options, keeping the tail it was given', async () => {
    const runner = createExecaCommandRunner({ maxOutputBytes: 4 });
    const result = await runner.run('printf abcdefgh', { cwd: root, timeoutMs: 10_000 });
    expect(result).toMatchObject({ exitCode: 0, stdoutTail: 'efgh' });
    expect(createExecaCommandRunner({}).concurrency).toBeGreaterThan(0);
    expect(createExecaCommandRunner({ maxOutputBytes: undefined }).concurrency).toBeGreaterThan(0);
  });
});

describe('createNodeFileSystem options', () => {
  it.each([
    ['maxReadByte', 'maxReadBytes'],
    ['maxreadbytes', 'maxReadBytes'],
    ['maxReadBtyes', 'maxReadBytes'],
  ])('refuses %s, naming its path and suggesting %s', async (key, suggestion) => {
    const error = await expectUnknownKey(() => createNodeFileSystem(root, { [key]: 10 } as never), [key], suggestion);
    expect(error.message).toContain('createNodeFileSystem');
  });

  it('refuses a wrong read cap at its path, and options that are not an object', async () => {
    const error = await refusal(() => createNodeFileSystem(root, { maxReadBytes: '1 MiB' as never }));
    expect(error.issues).toEqual([
      {
        code: 'invalid_value',
        path: ['maxReadBytes'],
        message: 'maxReadBytes must be a non-negative integer (got "1 MiB")',
      },
    ]);
    expect(await refusedPaths(() => createNodeFileSystem(root, [] as never))).toEqual([[]]);
    expect(await refusedPaths(() => createNodeFileSystem(root, null as never))).toEqual([[]]);
  });

  it('refuses a root that is not a non-empty string with INVALID_OPTIONS naming root, not a raw Node error', async () => {
    for (const bad of [123, { root }, '', undefined, null]) {
      const error = await refusal(() => createNodeFileSystem(bad as never));
      expect(error.code).toBe('INVALID_OPTIONS');
      expect(error.issues.map((issue) => issue.path)).toEqual([['root']]);
      expect(error.message).toContain('$.root: root must be a non-empty directory path');
    }
    expect(await refusedPaths(() => createNodeFileSystem(123 as never, { maxReadByte: 1 } as never))).toEqual([
      ['root'],
      ['maxReadByte'],
    ]);
  });

  it('accepts a root that does not exist yet: the first write creates it', async () => {
    const later = join(root, 'not-yet', 'project');
    const fs = createNodeFileSystem(later);
    expect(await fs.readText('a.txt')).toBeNull();
    await fs.writeText('runs/a.txt', 'hello');
    expect(await createNodeFileSystem(later).readText('runs/a.txt')).toBe('hello');
    await rm(join(root, 'not-yet'), { recursive: true });
  });

  it('writes nothing when it refuses, and works with valid options', async () => {
    await refusal(() => createNodeFileSystem(join(root, 'fresh'), { maxReadByte: 1 } as never));
    expect(await readdir(root)).toEqual([]);
    await writeFile(join(root, 'big.txt'), '12345');
    const capped = createNodeFileSystem(root, { maxReadBytes: 4 });
    await expect(capped.readText('big.txt')).rejects.toMatchObject({ code: 'IO_ERROR' });
    expect(await createNodeFileSystem(root, { maxReadBytes: 5 }).readText('big.txt')).toBe('12345');
    expect(await createNodeFileSystem(root).readText('big.txt')).toBe('12345');
  });
});
