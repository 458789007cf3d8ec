import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { readSessionView, sessionPaths } from '../../src/fix-loop/session-files.js';
import { withSessionLock } from '../../src/fix-loop/session-lock.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock } from '../../src/testing/manual-clock.js';

// Real symlinks under a real root: every session file is created or opened through withSessionLock, which holds
// the session's files to the containment rule before the lock file or anything else is written.

let top: string;
let root: string;
let out: string;
let fs: FileSystem;

beforeEach(async () => {
  top = await mkdtemp(join(tmpdir(), 'fix-loop-contain-'));
  root = join(top, 'root');
  out = join(top, 'out');
  await mkdir(join(root, 'sessions/s1'), { recursive: true });
  await mkdir(out);
  await writeFile(join(out, 'victim.txt'), 'precious\n');
  fs = createNodeFileSystem(root);
});

afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

// Opens session s1 under its lock and writes its record and one audit line, as start() and step() do.
async function openAndWrite(): Promise<string> {
  const setup = {
    fs,
    paths: sessionPaths('sessions', 's1'),
    clock: createManualClock(1_700_000_000_000),
    lockTimeoutMs: 1000,
    onAppend: () => undefined,
  };
  return withSessionLock(setup, async (commit) => {
    await commit.store.load();
    await commit.log.appendOnce([{ seq: 0 } as never]);
    return 'worked';
  });
}

// The error of a refused open, its code checked.
async function refusal(): Promise<string> {
  const error = await openAndWrite().then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
  return (error as Error).message;
}

const victim = () => readFile(join(out, 'victim.txt'), 'utf8');

describe('fix session files and the containment rule', () => {
  it('refuses a sessions folder that is a symlink out of the root and writes nothing there', async () => {
    await rm(join(root, 'sessions'), { recursive: true });
    await symlink(out, join(root, 'sessions'));
    expect(await refusal()).toMatch(/^The fix session file sessions is refused: .*outside the project root/);
    expect(await readdir(out)).toEqual(['victim.txt']);
  });

  it("refuses a session's folder that is a symlink out of the root", async () => {
    await rm(join(root, 'sessions/s1'), { recursive: true });
    await symlink(out, join(root, 'sessions/s1'));
    expect(await refusal()).toContain('sessions/s1');
    expect(await readdir(out)).toEqual(['victim.txt']);
  });

  it.each([['audit.jsonl'], ['state.json'], ['session.lock'], ['escalation.json'], ['escalation.md']])(
    'refuses %s as a symlink out of the root: the target is neither read nor written, the link stays',
    async (name) => {
      await symlink(join(out, 'victim.txt'), join(root, 'sessions/s1', name));
      expect(await refusal()).toContain(`The fix session file sessions/s1/${name} is refused`);
      expect(await victim()).toBe('precious\n');
      expect((await lstat(join(root, 'sessions/s1', name))).isSymbolicLink()).toBe(true);
      expect(await readdir(join(root, 'sessions/s1'))).toEqual([name]);
    },
  );

  it('refuses a dangling symlink out of the root, which a write would create outside', async () => {
    await symlink(join(out, 'new.jsonl'), join(root, 'sessions/s1/audit.jsonl'));
    expect(await refusal()).toContain('"sessions/s1/audit.jsonl" is a symlink whose target does not exist');
    expect(await readdir(out)).toEqual(['victim.txt']);
  });

  it('refuses a dangling symlinked sessions folder', async () => {
    await rm(join(root, 'sessions'), { recursive: true });
    await symlink(join(out, 'gone'), join(root, 'sessions'));
    expect(await refusal()).toContain('"sessions" is a symlink whose target does not exist');
    expect(await readdir(out)).toEqual(['victim.txt']);
  });

  it('follows a symlinked sessions folder that stays inside the root', async () => {
    await rm(join(root, 'sessions'), { recursive: true });
    await mkdir(join(root, 'kept/s1'), { recursive: true });
    await symlink('kept', join(root, 'sessions'));
    expect(await openAndWrite()).toBe('worked');
    expect(await readFile(join(root, 'kept/s1/audit.jsonl'), 'utf8')).toBe('{"seq":0}\n');
  });

  it('reads no session file that leads out of the root when a session is only looked at', async () => {
    await writeFile(join(out, 'state.json'), '{}');
    await symlink(join(out, 'state.json'), join(root, 'sessions/s1/state.json'));
    const error = await readSessionView(fs, sessionPaths('sessions', 's1'), 's1', 20).catch(
      (caught: unknown) => caught,
    );
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('The fix session file sessions/s1/state.json is refused');
  });
});
