// goal-loop/node: the adapters that touch Node (filesystem, child processes).

export { createExecaCommandRunner } from './node/command-runner.js';
export { createNodeFileSystem } from './node/file-system.js';
export type { ExecaCommandRunnerOptions, NodeFileSystemOptions } from './node/options.js';
export { createNodeProcessProbe } from './node/process-probe.js';
export type { CommandResult, CommandRunner, CommandRunOptions } from './ports/command-runner.js';
// The port types this entry's adapters implement, so its declarations stand alone.
export type { FileGuard, FileStat, FileSystem } from './ports/file-system.js';
export type { ProcessProbe } from './ports/process-probe.js';
