import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

// A workspace's whole tree as data, to compare before and after a step: every entry's kind, mode and content (a
// symlink's target), .git included.

/** Every path under `root` (sorted) with its kind and mode, and its bytes (base64) or its link target. */
export async function workspaceTree(root: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const full = join(root, path);
      const mode = (await lstat(full)).mode.toString(8);
      if (entry.isSymbolicLink()) tree[path] = `link ${mode} -> ${await readlink(full)}`;
      else if (entry.isDirectory()) {
        tree[path] = `dir ${mode}`;
        await walk(path);
      } else tree[path] = `file ${mode} ${(await readFile(full)).toString('base64')}`;
    }
  };
  await walk('');
  return tree;
}
