import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';

// Stage ids that name members of Object.prototype (toString, constructor, valueOf) are ordinary stage ids: a stage
// that has not run reads as pending, never as the inherited function.

describe('GoalLoop with stage ids toString, constructor and valueOf', () => {
  it('a session cut off after the first stage resumes with exactly the stages that had not run', async () => {
    let crashed = false;
    const memory = createMemoryFileSystem();
    // The loop runs in this process: "crashed" is what a resumer sees after a kill -9 of it.
    const fs: FileSystem = { ...memory, processes: { host: 'h', isGone: (pid) => crashed && pid === process.pid } };
    const stages = ['first', 'toString', 'constructor', 'valueOf'];
    const options = { fs, runDir: 'runs/r', stages, clock: createManualClock(0) };
    let reached!: () => void;
    const inToString = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const stuck = createScriptedStageRunner({
      first: { status: 'passed' },
      toString: () => {
        reached();
        return new Promise<never>(() => {});
      },
    });
    void new GoalLoop({ ...options, runner: stuck }).run();
    await inToString;
    crashed = true;
    const passed: StageOutcome = { status: 'passed' };
    const runner = createScriptedStageRunner({ toString: passed, constructor: passed, valueOf: passed });
    const result = await new GoalLoop({ ...options, runner }).run();
    expect(result.stoppedOn).toBe('complete');
    expect(runner.calls.map((call) => call.stageId)).toEqual(['toString', 'constructor', 'valueOf']);
  });
});
