// goal-loop/testing: in-memory doubles for every port, and the adapter conformance suites. The ports they implement
// are goal-loop's.

export type {
  FakeCommandCall,
  FakeCommandResponse,
  FakeCommandRule,
  FakeCommandRunner,
} from './testing/fake-command-runner.js';
export { createFakeCommandRunner } from './testing/fake-command-runner.js';
export type { ConformanceTestApi, FileSystemFixture } from './testing/file-system-conformance.js';
export { describeFileSystemConformance, fileSystemConformanceCases } from './testing/file-system-conformance.js';
export type { ManualClock } from './testing/manual-clock.js';
export { createManualClock } from './testing/manual-clock.js';
export type { MemoryFileSystem } from './testing/memory-file-system.js';
export { createMemoryFileSystem } from './testing/memory-file-system.js';
export type { MemoryFileSystemOptions } from './testing/memory-file-system-options.js';
export type {
  ScriptedStageCall,
  ScriptedStageRunner,
  ScriptedStageRunnerOptions,
  ScriptedStep,
  StageScript,
} from './testing/scripted-stage-runner.js';
export { createScriptedStageRunner } from './testing/scripted-stage-runner.js';
