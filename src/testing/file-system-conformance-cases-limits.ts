import { expectEqual, expectRejection, expectTrue } from './conformance-check.js';
import type { ConformanceCase } from './file-system-conformance-cases-io.js';

// How long an operation on a FIFO may take before the case calls it a hang.
const HANG_MS = 2_000;

// Asserts that an operation rejects, within HANG_MS, with an error whose code is IO_ERROR (a GoalLoopError or not)
// and whose message names `path` (and `also`).
async function rejectsNaming(operation: Promise<unknown>, what: string, path: string, also?: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), HANG_MS);
  });
  const rule = `${what} "${path}" throws IO_ERROR at once`;
  const checked = expectRejection(operation, 'IO_ERROR', rule).then(
    (message) => ({ message }),
    (failure: unknown) => ({ failure }),
  );
  const settled = await Promise.race([checked, hang]).finally(() => clearTimeout(timer));
  expectTrue(settled !== 'hang', `${rule}, never waiting: it did not settle within ${HANG_MS} ms`);
  if ('failure' in settled) throw settled.failure;
  const { message } = settled;
  expectTrue(message.includes(path), `the IO_ERROR of ${what} names the path "${path}"`, message);
  if (also !== undefined) expectTrue(message.includes(also), `the IO_ERROR of ${what} says ${also}`, message);
}

/** The cases about what a reader must never do. @internal */
export const fileLimitCases: readonly ConformanceCase[] = [
  {
    name: 'refuses to read a directory as a file, naming it',
    async run({ fs }) {
      await fs.mkdir('dir.json');
      await rejectsNaming(fs.readText('dir.json'), 'readText', 'dir.json');
      await rejectsNaming(fs.readBytes('dir.json', 0, 16), 'readBytes', 'dir.json');
    },
  },
  {
    name: 'refuses a file over the read cap, naming it and its size',
    async run({ fs, maxReadBytes }) {
      if (maxReadBytes === undefined) return;
      await fs.writeText('at-cap.txt', 'a'.repeat(maxReadBytes));
      expectEqual(
        (await fs.readText('at-cap.txt'))?.length,
        maxReadBytes,
        'a file exactly at the read cap is read whole',
      );
      await fs.writeText('over-cap.txt', 'a'.repeat(maxReadBytes + 1));
      await rejectsNaming(fs.readText('over-cap.txt'), 'readText', 'over-cap.txt', String(maxReadBytes + 1));
      expectEqual(
        (await fs.readBytes('over-cap.txt', maxReadBytes, 10))?.length,
        1,
        'readBytes is not held to the read cap (it reads the tail of a large file)',
      );
    },
  },
  {
    name: 'refuses a FIFO at once from every reader and writer, never waiting for the other end',
    async run({ fs, mkfifo, symlink }) {
      if (mkfifo === undefined) return;
      await fs.mkdir('runs');
      await mkfifo('runs/goal.json');
      expectEqual((await fs.stat('runs/goal.json'))?.type, 'other', 'stat of a FIFO says type "other"');
      await rejectsNaming(fs.readText('runs/goal.json'), 'readText', 'runs/goal.json');
      await rejectsNaming(fs.readBytes('runs/goal.json', 0, 16), 'readBytes', 'runs/goal.json');
      await rejectsNaming(fs.appendText('runs/goal.json', 'x\n'), 'appendText', 'runs/goal.json');
      await rejectsNaming(fs.truncate('runs/goal.json', 0), 'truncate', 'runs/goal.json');
      if (symlink === undefined) return;
      await symlink('goal.json', 'runs/link.json');
      await rejectsNaming(fs.readText('runs/link.json'), 'readText', 'runs/link.json');
    },
  },
  {
    name: 'refuses text that is not UTF-8, naming the path and the byte offset, and keeps a byte order mark',
    async run({ fs }) {
      // 'ab€' is 61 62 e2 82 ac: cut to four bytes, the euro sign loses its last byte.
      await fs.writeText('cut.txt', 'ab€');
      await fs.truncate('cut.txt', 4);
      await rejectsNaming(fs.readText('cut.txt'), 'readText', 'cut.txt', 'byte offset 2');
      expectEqual(
        Array.from((await fs.readBytes('cut.txt', 0, 8)) ?? []),
        [0x61, 0x62, 0xe2, 0x82],
        'readBytes returns bytes that are not UTF-8 as they are',
      );
      await fs.writeText('bom.json', '\uFEFF{}');
      expectEqual(await fs.readText('bom.json'), '\uFEFF{}', 'readText keeps a byte order mark as U+FEFF');
    },
  },
  {
    name: 'truncates a regular file to a byte length, and only shortens it',
    async run({ fs, symlink }) {
      await fs.writeText('log/events.jsonl', '{"n":1}\n{"n":2}\n{"n":');
      await fs.truncate('log/events.jsonl', 16);
      expectEqual(await fs.readText('log/events.jsonl'), '{"n":1}\n{"n":2}\n', 'truncate keeps the first size bytes');
      await fs.truncate('log/events.jsonl', 1_000);
      expectEqual(
        (await fs.stat('log/events.jsonl'))?.size,
        16,
        'truncate to a size past the end leaves the file as it is (it only shortens)',
      );
      await fs.appendText('log/events.jsonl', '{"n":3}\n');
      expectEqual(
        await fs.readText('log/events.jsonl'),
        '{"n":1}\n{"n":2}\n{"n":3}\n',
        'an append after truncate continues at the new end',
      );
      await fs.truncate('log/events.jsonl', 0);
      expectEqual(await fs.readText('log/events.jsonl'), '', 'truncate to 0 empties the file');
      await rejectsNaming(fs.truncate('log/missing.jsonl', 0), 'truncate', 'log/missing.jsonl');
      await rejectsNaming(fs.truncate('log', 0), 'truncate', 'log');
      await expectRejection(
        fs.truncate('log/events.jsonl', -1),
        'INVALID_OPTIONS',
        'truncate to a negative size throws INVALID_OPTIONS',
      );
      await expectRejection(
        fs.truncate('log/events.jsonl', 1.5),
        'INVALID_OPTIONS',
        'truncate to a fractional size throws INVALID_OPTIONS',
      );
      if (symlink === undefined) return;
      await fs.writeText('log/target.txt', 'abcdef');
      await symlink('target.txt', 'log/alias.txt');
      await fs.truncate('log/alias.txt', 3);
      expectEqual(await fs.readText('log/target.txt'), 'abc', 'truncate through a symlink shortens its target');
      expectEqual((await fs.stat('log/alias.txt'))?.type, 'symlink', 'truncate through a symlink keeps the link');
    },
  },
  {
    name: 'removes stale atomic-write temp files, and nothing else',
    async run({ fs, symlink }) {
      if (fs.removeStaleTempFiles === undefined) return;
      const temp = (name: string) => `.${name}.4242.0f8e7c1a-2b3c-4d5e-8f90-123456789abc.tmp`;
      const keep = ['run/state.json', 'run/.hidden.tmp', 'run/state.json.tmp', 'run/sub/evaluation.json'];
      for (const path of keep) await fs.writeText(path, 'keep');
      await fs.writeText(`run/${temp('state.json')}`, '{"torn');
      await fs.writeText(`run/sub/${temp('evaluation.json')}`, '{"torn');
      await fs.writeText(`elsewhere/${temp('x.json')}`, '{"torn');
      if (symlink !== undefined) await symlink('../elsewhere', 'run/linked');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expectEqual(
        await fs.removeStaleTempFiles('run', { olderThanMs: 3_600_000, recursive: true }),
        [],
        'the sweep keeps temp files younger than olderThanMs',
      );
      expectEqual(
        await fs.removeStaleTempFiles('run', { olderThanMs: 0 }),
        [`run/${temp('state.json')}`],
        'the sweep without recursive removes the stale temp files of that directory only, and returns their paths',
      );
      expectEqual(
        await fs.removeStaleTempFiles('run', { olderThanMs: 0, recursive: true }),
        [`run/sub/${temp('evaluation.json')}`],
        'the recursive sweep removes stale temp files in subdirectories, never through a symlink',
      );
      for (const path of keep)
        expectEqual(await fs.readText(path), 'keep', `the sweep keeps ${path}, which is not an atomic-write temp file`);
      expectEqual(
        await fs.readText(`elsewhere/${temp('x.json')}`),
        '{"torn',
        'the sweep never follows a symlink out of the swept directory',
      );
      expectEqual(
        await fs.removeStaleTempFiles('missing', { olderThanMs: 0, recursive: true }),
        [],
        'the sweep of a missing directory removes nothing and does not throw',
      );
    },
  },
];
