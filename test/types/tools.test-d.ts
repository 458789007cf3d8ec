import { createGoalLoopTools, type Tool, type ToolResult } from 'goal-loop';
import type { LoopStatusOutput, RunFeedbackLoopOutput, StartFeedbackLoopInput } from 'goal-loop/contracts';
import { createFixLoopTools, type FixLoopOrchestrator } from 'goal-loop/fix-loop';
import { createMemoryFileSystem } from 'goal-loop/testing';
import { describe, expectTypeOf, it } from 'vitest';

describe('tools for agent hosts', () => {
  it('types each tool of the tuple, handlers taking unknown input and resolving to a ToolResult', () => {
    const [, , status] = createGoalLoopTools({ fs: createMemoryFileSystem() });
    expectTypeOf(status.handler).parameter(0).toEqualTypeOf<unknown>();
    expectTypeOf(status.handler).returns.toEqualTypeOf<Promise<ToolResult<LoopStatusOutput>>>();
    expectTypeOf<LoopStatusOutput['pending_stages']>().toEqualTypeOf<readonly string[]>();
    // Every tool fits a host's list of tools of any input and output.
    expectTypeOf(status).toExtend<Tool>();
  });

  it('takes the seed input names and types the run output', () => {
    expectTypeOf<StartFeedbackLoopInput>().toHaveProperty('goal_type');
    expectTypeOf<StartFeedbackLoopInput['max_attempts']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RunFeedbackLoopOutput['steps_taken']>().toEqualTypeOf<number>();
    expectTypeOf<RunFeedbackLoopOutput>().toHaveProperty('final_status');
    expectTypeOf<RunFeedbackLoopOutput['audit_log']>().toExtend<readonly unknown[] | undefined>();
    const tools = (fixer: FixLoopOrchestrator) => createFixLoopTools(fixer);
    expectTypeOf(tools).returns.toExtend<readonly Tool[]>();
  });
});
