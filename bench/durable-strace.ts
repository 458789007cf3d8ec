// The fsyncs and system calls of one goal-loop iteration on the Node filesystem: durable-child.ts under
// `strace -f -c` with N iterations and with none (the same setup), the difference over N, the median of three pairs.
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./durable-child.ts', import.meta.url));
const N = 50;
const PAIRS = 3;

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

async function counted(dir: string, n: number, pair: number): Promise<Map<string, number>> {
  const out = join(dir, `strace-${pair}-${n}.txt`);
  const work = join(dir, `strace-run-${pair}-${n}`);
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
  // The futex and epoll calls of V8's and libuv's threads move with the machine's load: the median of three pairs.
  const pairs: ((name: string) => number)[] = [];
  const names = new Set<string>();
  for (let pair = 0; pair < PAIRS; pair++) {
    const base = await counted(dir, 0, pair);
    const full = await counted(dir, N, pair);
    for (const name of full.keys()) if (name !== 'total') names.add(name);
    pairs.push((name) => ((full.get(name) ?? 0) - (base.get(name) ?? 0)) / N);
  }
  const per = (name: string) => {
    const sorted = pairs.map((of) => of(name)).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  const top = [...names]
    .map((name) => [name, per(name)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, count]) => `${name} ${count.toFixed(0)}`)
    .join(', ');
  return { fsyncs: per('fsync') + per('fdatasync'), syscalls: per('total'), top };
}
