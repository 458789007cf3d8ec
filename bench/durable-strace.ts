// The fsyncs and system calls of one goal-loop iteration on the Node filesystem: durable-child.ts under
// `strace -f -c` with N iterations and with none (the same setup), the difference over N.
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./durable-child.ts', import.meta.url));
const N = 50;

/** Calls by name, from `strace -c` output (the summary table). */
function parseStraceSummary(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of text.split('\n')) {
    const cells = line.trim().split(/\s+/);
    // % time, seconds, usecs/call, calls, [errors], syscall
    const name = cells.at(-1);
    const count = Number(cells[3]);
    if (cells.length >= 5 && name !== undefined && Number.isInteger(count) && /^[a-z_0-9]+$/.test(name))
      calls.set(name, count);
  }
  return calls;
}

async function counted(dir: string, n: number): Promise<Map<string, number>> {
  const out = join(dir, `strace-${n}.txt`);
  const work = join(dir, `strace-run-${n}`);
  await mkdir(work, { recursive: true });
  await run('strace', ['-f', '-c', '-o', out, process.execPath, ...process.execArgv, CHILD, work, String(n)]);
  return parseStraceSummary(await readFile(out, 'utf8'));
}

/** Per iteration: fsyncs (fsync + fdatasync), all system calls, and the three most frequent; or why not. */
export async function iterationSyscalls(
  dir: string,
): Promise<{ fsyncs: number; syscalls: number; top: string } | { skipped: string }> {
  try {
    await run('strace', ['-V']);
  } catch {
    return { skipped: 'n/a (no strace)' };
  }
  const base = await counted(dir, 0);
  const full = await counted(dir, N);
  const per = (name: string) => ((full.get(name) ?? 0) - (base.get(name) ?? 0)) / N;
  const names = [...full.keys()].filter((name) => name !== 'total');
  const top = names
    .map((name) => [name, per(name)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, count]) => `${name} ${count.toFixed(0)}`)
    .join(', ');
  return { fsyncs: per('fsync') + per('fdatasync'), syscalls: per('total'), top };
}
