// goal-loop/node: the adapters that touch Node (filesystem, child processes, process liveness). The ports they
// implement are goal-loop's.

export { createExecaCommandRunner } from './node/command-runner.js';
export { createNodeFileSystem } from './node/file-system.js';
export type { ExecaCommandRunnerOptions, NodeFileSystemOptions } from './node/options.js';
export { createNodeProcessProbe } from './node/process-probe.js';
