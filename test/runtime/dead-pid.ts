import { spawn } from 'node:child_process';

/** The pid of a process this test started and saw exit: a pid that is gone (until the system reuses it). */
export function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => (child.pid === undefined ? reject(new Error('no pid')) : resolve(child.pid)));
  });
}
