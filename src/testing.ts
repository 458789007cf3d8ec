// goal-loop/testing: in-memory doubles for every port, and the adapter conformance suites.

export { createMemoryFileSystem } from './testing/memory-file-system.js';
export type { MemoryFileSystem, MemoryFileSystemOptions } from './testing/memory-file-system.js';
export { createScriptedStageRunner } from './testing/scripted-stage-runner.js';
export type {
  ScriptedStageRunner,
  ScriptedStageRunnerOptions,
  ScriptedStep,
  StageScript,
  ScriptedStageCall,
} from './testing/scripted-stage-runner.js';
export { createFakeCommandRunner } from './testing/fake-command-runner.js';
export type {
  FakeCommandRunner,
  FakeCommandResponse,
  FakeCommandRule,
  FakeCommandCall,
} from './testing/fake-command-runner.js';
export { createManualClock } from './testing/manual-clock.js';
export type { ManualClock } from './testing/manual-clock.js';
export { describeFileSystemConformance, fileSystemConformanceCases } from './testing/file-system-conformance.js';
export type { ConformanceTestApi, FileSystemFixture } from './testing/file-system-conformance.js';

// The port types this entry's adapters implement, so its declarations stand alone.
export type { FileSystem, FileStat } from './ports/file-system.js';
export type { CommandRunner, CommandRunOptions, CommandResult } from './ports/command-runner.js';
export type { Clock } from './ports/clock.js';
export type {
  StageRunner,
  StageContext,
  StageOutcome,
  StageOutcomeStatus,
  StageRunReason,
} from './ports/stage-runner.js';
