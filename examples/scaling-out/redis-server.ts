// A throwaway redis-server for the example: loopback only, on a free port, nothing persisted, in the foreground
// as a child process, so stopping the example stops it.
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../scripts/free-port.js';

/** A running redis-server child. `stop()` ends it (SIGTERM, then SIGKILL); `kill()` is the synchronous last resort. */
export interface RedisServer {
  readonly port: number;
  readonly version: string;
  stop(): Promise<void>;
  kill(): void;
}

const READY_TIMEOUT_MS = 10_000;

// Starts redis-server on `port` and resolves once it accepts connections; rejects with its output if it exits.
function startOn(port: number, dir: string): Promise<{ child: ChildProcess; version: string }> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', [...args, '--daemonize', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not become ready in ${READY_TIMEOUT_MS} ms:\n${output}`));
    }, READY_TIMEOUT_MS);
    const onOutput = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve({ child, version: /Redis version=([\d.]+)/.exec(output)?.[1] ?? 'unknown' });
      }
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    child.once('error', (error) => {
      clearTimeout(timer);
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(missing ? new Error('redis-server is not installed (Debian: apt-get install redis-server)') : error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${signal ?? `code ${code}`}) before it was ready:\n${output}`));
    });
  });
}

/** Starts a redis-server on a free loopback port, working in `dir`; tries three ports before giving up. */
export async function startRedisServer(dir: string): Promise<RedisServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      const { child, version } = await startOn(port, dir);
      child.stdout?.resume();
      child.stderr?.resume();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return {
        port,
        version,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
          await exited;
          clearTimeout(timer);
        },
        kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        },
      };
    } catch (error) {
      lastError = error;
      if (error instanceof Error && /not installed/.test(error.message)) break;
    }
  }
  throw lastError;
}
