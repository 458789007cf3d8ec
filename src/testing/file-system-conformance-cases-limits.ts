import assert from 'node:assert/strict';
import { isGoalLoopError } from '../errors.js';
import type { ConformanceCase } from './file-system-conformance-cases-io.js';

// How long an operation on a FIFO may take before the case calls it a hang.
const HANG_MS = 2_000;

// Asserts that an operation rejects with an IO_ERROR whose message names `path` (and `also`), within HANG_MS.
async function rejectsNaming(operation: Promise<unknown>, what: string, path: string, also?: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), HANG_MS);
  });
  const settled = await Promise.race([
    operation.then(
      () => 'resolved' as const,
      (error: unknown) => error,
    ),
    hang,
  ]).finally(() => clearTimeout(timer));
  assert.notEqual(settled, 'hang', `${what} "${path}" did not settle within ${HANG_MS} ms`);
  assert.notEqual(settled, 'resolved', `${what} "${path}" should have failed`);
  assert.ok(isGoalLoopError(settled, 'IO_ERROR'), `${what} "${path}" should throw an IO_ERROR, got ${String(settled)}`);
  assert.ok(settled.message.includes(path), `the ${what} error should name "${path}": ${settled.message}`);
  if (also !== undefined)
    assert.ok(settled.message.includes(also), `the ${what} error should say ${also}: ${settled.message}`);
}

/**
 * The cases about what a reader must never do: hang on a FIFO, read a
 * directory or a device as a file, read past the size cap, or decode bytes
 * that are not UTF-8; and about
 * `truncate` and the sweep of stale temp files. The FIFO cases return early,
 * passing, when the fixture has no `mkfifo`; the cap case when it declares no
 * `maxReadBytes`; the sweep when the filesystem has no `removeStaleTempFiles`.
 *
 * @internal
 */
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
      assert.equal((await fs.readText('at-cap.txt'))?.length, maxReadBytes);
      await fs.writeText('over-cap.txt', 'a'.repeat(maxReadBytes + 1));
      await rejectsNaming(fs.readText('over-cap.txt'), 'readText', 'over-cap.txt', String(maxReadBytes + 1));
      assert.equal((await fs.readBytes('over-cap.txt', maxReadBytes, 10))?.length, 1);
    },
  },
  {
    name: 'refuses a FIFO at once from every reader and writer, never waiting for the other end',
    async run({ fs, mkfifo, symlink }) {
      if (mkfifo === undefined) return;
      await fs.mkdir('runs');
      await mkfifo('runs/goal.json');
      assert.equal((await fs.stat('runs/goal.json'))?.type, 'other');
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
      assert.deepEqual(Array.from((await fs.readBytes('cut.txt', 0, 8)) ?? []), [0x61, 0x62, 0xe2, 0x82]);
      await fs.writeText('bom.json', '\uFEFF{}');
      assert.equal(await fs.readText('bom.json'), '\uFEFF{}');
    },
  },
  {
    name: 'truncates a regular file to a byte length, and only shortens it',
    async run({ fs, symlink }) {
      await fs.writeText('log/events.jsonl', '{"n":1}\n{"n":2}\n{"n":');
      await fs.truncate('log/events.jsonl', 16);
      assert.equal(await fs.readText('log/events.jsonl'), '{"n":1}\n{"n":2}\n');
      await fs.truncate('log/events.jsonl', 1_000);
      assert.equal((await fs.stat('log/events.jsonl'))?.size, 16);
      await fs.appendText('log/events.jsonl', '{"n":3}\n');
      assert.equal(await fs.readText('log/events.jsonl'), '{"n":1}\n{"n":2}\n{"n":3}\n');
      await fs.truncate('log/events.jsonl', 0);
      assert.equal(await fs.readText('log/events.jsonl'), '');
      await rejectsNaming(fs.truncate('log/missing.jsonl', 0), 'truncate', 'log/missing.jsonl');
      await rejectsNaming(fs.truncate('log', 0), 'truncate', 'log');
      await assert.rejects(fs.truncate('log/events.jsonl', -1), (error) => isGoalLoopError(error, 'INVALID_OPTIONS'));
      await assert.rejects(fs.truncate('log/events.jsonl', 1.5), (error) => isGoalLoopError(error, 'INVALID_OPTIONS'));
      if (symlink === undefined) return;
      await fs.writeText('log/target.txt', 'abcdef');
      await symlink('target.txt', 'log/alias.txt');
      await fs.truncate('log/alias.txt', 3);
      assert.equal(await fs.readText('log/target.txt'), 'abc');
      assert.equal((await fs.stat('log/alias.txt'))?.type, 'symlink');
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
      assert.deepEqual(await fs.removeStaleTempFiles('run', { olderThanMs: 3_600_000, recursive: true }), []);
      assert.deepEqual(await fs.removeStaleTempFiles('run', { olderThanMs: 0 }), [`run/${temp('state.json')}`]);
      assert.deepEqual(await fs.removeStaleTempFiles('run', { olderThanMs: 0, recursive: true }), [
        `run/sub/${temp('evaluation.json')}`,
      ]);
      for (const path of keep) assert.equal(await fs.readText(path), 'keep');
      assert.equal(await fs.readText(`elsewhere/${temp('x.json')}`), '{"torn');
      assert.deepEqual(await fs.removeStaleTempFiles('missing', { olderThanMs: 0, recursive: true }), []);
    },
  },
];
