// goal-loop/node: the adapters that touch Node (filesystem, child processes, the system clock).

export { createNodeFileSystem } from './node/file-system.js';
export { createExecaCommandRunner } from './node/command-runner.js';
export type { ExecaCommandRunnerOptions } from './node/command-runner.js';
export { createSystemClock, systemClock } from './node/clock.js';
