import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { readPendingCosts } from '../../src/runtime/pending-costs.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// A pending late costs folder as read: each regular file its record or why not; a bounded number of reads at once.

const schema = z.object({ cost_usd: z.number().positive() });

describe('readPendingCosts', () => {
  it('reads a folder of many files at most 16 at a time (no EMFILE making costs read as damaged)', async () => {
    const base = createMemoryFileSystem();
    for (let index = 0; index < 200; index++) await base.writeText(`p/${index}.json`, '{"cost_usd":0.5}');
    let open = 0;
    let most = 0;
    const fs: FileSystem = {
      ...base,
      readText: async (path) => {
        open += 1;
        most = Math.max(most, open);
        await new Promise((resolve) => setTimeout(resolve, 0));
        open -= 1;
        return base.readText(path);
      },
    };
    const read = await readPendingCosts(fs, 'p', schema);
    expect(read).toHaveLength(200);
    expect(read.every((file) => 'record' in file)).toBe(true);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(16);
  });

  describe('on the Node filesystem', () => {
    let root = '';
    beforeEach(async () => {
      root = await mkdtemp(join(tmpdir(), 'pending-costs-'));
      await mkdir(join(root, 'p'));
    });
    afterEach(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it('reports a symlink, even to a pending file of the same folder or to nothing, and counts only regular files', async () => {
      await writeFile(join(root, 'p', 'a.json'), '{"cost_usd":0.5}');
      await symlink(join(root, 'p', 'a.json'), join(root, 'p', 'b.json'));
      await symlink(join(root, 'p', 'gone.json'), join(root, 'p', 'c.json'));
      const read = await readPendingCosts(createNodeFileSystem(root), 'p', schema);
      expect(read).toEqual([
        { name: 'a.json', path: 'p/a.json', record: { cost_usd: 0.5 } },
        { name: 'b.json', path: 'p/b.json', problem: 'a symlink, not a pending cost file' },
        { name: 'c.json', path: 'p/c.json', problem: 'a symlink, not a pending cost file' },
      ]);
    });
  });
});
