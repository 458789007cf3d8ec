// A throwaway PostgreSQL server from Debian's `postgresql` package: `initdb` into a temporary folder, started in the
// foreground on a free loopback port (no other address, trust authentication), stopped and removed at the end. As
// root (CI, the dev machine) initdb and the server run as the `postgres` user the package creates, since both refuse
// to run as root.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** A running server: `url` for `pg`, `restart()` stops it (fast shutdown) and starts it again on the same port. */
export interface PostgresServer {
  readonly port: number;
  readonly url: string;
  readonly version: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
const USER = 'goal_loop';

// The newest installed server's bin folder (/usr/lib/postgresql/<major>/bin), or a clear error naming the package.
function binDir(): string {
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base) ? readdirSync(base).filter((name) => /^\d+$/.test(name)) : [];
  const newest = majors.map(Number).sort((a, b) => b - a)[0];
  if (newest === undefined) throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql)');
  return join(base, String(newest), 'bin');
}

// Who runs the server: the `postgres` user when this process is root, else this process's own user.
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('running as root needs the postgres user of Debian');
  return { uid: Number(uid), gid: Number(gid) };
}

// Starts the server on `port` and resolves once it accepts connections; rejects with its log if it exits first.
function startOn(bin: string, dir: string, port: number, user: ReturnType<typeof serverUser>): Promise<ChildProcess> {
  const args = ['-D', join(dir, 'data'), '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'];
  // fsync off: a crash of the server process loses nothing committed (the kernel has it); a machine crash is not tested.
  const settings = ['fsync=off', 'full_page_writes=off', 'max_connections=100', 'log_min_messages=warning'];
  const child = spawn(join(bin, 'postgres'), [...args, ...settings.flatMap((s) => ['-c', s])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  // A server never outlives the process that started it, even one that crashed.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`postgres did not become ready in ${READY_TIMEOUT_MS} ms:\n${output}`));
    }, READY_TIMEOUT_MS);
    const ready = setInterval(() => {
      try {
        execFileSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']);
      } catch {
        return;
      }
      clearInterval(ready);
      clearTimeout(timer);
      child.off('exit', early);
      resolve(child);
    }, 100);
    const collect = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-8_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const early = (code: number | null, signal: NodeJS.Signals | null): void => {
      clearInterval(ready);
      clearTimeout(timer);
      reject(new Error(`postgres exited (${signal ?? `code ${code}`}) before it was ready:\n${output}`));
    };
    child.once('exit', early);
  });
}

// Ends the server with a fast shutdown (SIGINT: connections closed, everything committed flushed), SIGKILL after 10 s.
async function shutdown(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Makes a fresh cluster in a temporary folder and starts it on a free loopback port. */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = binDir();
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'goal-loop-pg-'));
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const initdb = ['-D', join(dir, 'data'), '-U', USER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'];
  execFileSync(join(bin, 'initdb'), initdb, { stdio: 'pipe', ...user });
  const version = execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).trim();
  const port = await freePort();
  let child = await startOn(bin, dir, port, user);
  return {
    port,
    url: `postgres://${USER}@127.0.0.1:${port}/postgres`,
    version,
    async restart() {
      await shutdown(child);
      child = await startOn(bin, dir, port, user);
    },
    async stop() {
      await shutdown(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Run directly: start a server, print its URL, and stop it on Ctrl-C or SIGTERM.
if (process.argv[1]?.endsWith('postgres-server.ts')) {
  const server = await startPostgresServer();
  console.log(`${server.version} at ${server.url}`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
