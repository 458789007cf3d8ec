// goal-loop/node: the adapters that touch Node (filesystem, child processes).

export { createNodeFileSystem } from './node/file-system.js';
export { createExecaCommandRunner } from './node/command-runner.js';
export type { ExecaCommandRunnerOptions } from './node/command-runner.js';

// The port types this entry's adapters implement, so its declarations stand alone.
export type { FileSystem, FileStat } from './ports/file-system.js';
export type { CommandRunner, CommandRunOptions, CommandResult } from './ports/command-runner.js';
