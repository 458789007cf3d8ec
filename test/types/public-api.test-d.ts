import type { FileSystem } from 'goal-loop';
import {
  exitCodeFor,
  type GoalEvaluation,
  type GoalInput,
  type GoalLoop,
  type GoalLoopOptions,
  type LoopEvent,
  type LoopResult,
  type LoopStepResult,
  parseGoal,
  type StageContext,
  type StageOutcome,
  type StageRunner,
} from 'goal-loop';
import type { Criterion, StopReason } from 'goal-loop/contracts';
import { createNodeFileSystem } from 'goal-loop/node';
import { type ConformanceTestApi, createMemoryFileSystem, createScriptedStageRunner } from 'goal-loop/testing';
import { describe, expectTypeOf, it } from 'vitest';
import type { StageContextOf, StageRunnerOf } from '../../src/ports/stage-runner.js';

describe('public API types', () => {
  it('GoalLoop.run() resolves to plain data with a closed stop reason', () => {
    expectTypeOf<GoalLoop['run']>().returns.resolves.toEqualTypeOf<LoopResult>();
    expectTypeOf<LoopResult['stoppedOn']>().toEqualTypeOf<StopReason>();
    expectTypeOf<StopReason>().toEqualTypeOf<
      | 'complete'
      | 'ask_user'
      | 'blocked'
      | 'max_iterations'
      | 'no_progress'
      | 'budget_exhausted'
      | 'evaluation_error'
      | 'aborted'
      | 'dry_run'
    >();
    expectTypeOf(exitCodeFor).parameter(0).toMatchTypeOf<{ stoppedOn: StopReason }>();
  });

  it('step() tells done from not done, and evaluate() is a dry run returning an evaluation', () => {
    expectTypeOf<GoalLoop['step']>().returns.resolves.toEqualTypeOf<LoopStepResult>();
    expectTypeOf<Extract<LoopStepResult, { done: false }>['stoppedOn']>().toEqualTypeOf<null>();
    expectTypeOf<GoalLoop['evaluate']>().returns.resolves.toEqualTypeOf<GoalEvaluation>();
    expectTypeOf<GoalEvaluation['status']>().toEqualTypeOf<'PASS' | 'RETRY' | 'ASK_USER' | 'BLOCK' | 'ERROR'>();
  });

  it('a goal written as in goal.json type-checks without its defaults, and parsing yields the full type', () => {
    const goal = { schema_version: 1, criteria: [{ id: 'a', kind: 'file_exists', path: 'x' }] } satisfies GoalInput;
    const parsed = parseGoal(goal);
    if (parsed.success) expectTypeOf(parsed.data.criteria).toEqualTypeOf<Criterion[]>();
    expectTypeOf<Extract<Criterion, { kind: 'command' }>['timeout_ms']>().toEqualTypeOf<number>();
  });

  it('a stage runner is one async method returning a status union', () => {
    expectTypeOf<StageOutcome['status']>().toEqualTypeOf<
      'passed' | 'failed' | 'blocked' | 'needs_context' | 'awaiting_approval'
    >();
    expectTypeOf<{ run: () => Promise<{ status: 'passed' }> }>().toMatchTypeOf<StageRunner>();
  });

  it("the goal loop's stage runner sees its last goal evaluation; the port itself is domain-free", () => {
    expectTypeOf<StageContext['previousEvaluation']>().toEqualTypeOf<GoalEvaluation | null>();
    expectTypeOf<Parameters<StageRunner['run']>[1]>().toEqualTypeOf<StageContext>();
    expectTypeOf<StageContextOf['previousEvaluation']>().toEqualTypeOf<unknown>();
    expectTypeOf<GoalLoopOptions['runner']>().toEqualTypeOf<StageRunner>();
    const host: StageRunner = {
      async run(_stageId, context) {
        return { status: context.previousEvaluation?.status === 'RETRY' ? 'failed' : 'passed' };
      },
    };
    expectTypeOf(host).toMatchTypeOf<GoalLoopOptions['runner']>();
    expectTypeOf<StageRunnerOf>().toMatchTypeOf<GoalLoopOptions['runner']>();
    expectTypeOf(createScriptedStageRunner({ a: { status: 'passed' } })).toMatchTypeOf<GoalLoopOptions['runner']>();
    const reading = createScriptedStageRunner<GoalEvaluation>({
      a: (context) => ({ status: context.previousEvaluation?.status === 'PASS' ? 'passed' : 'failed' }),
    });
    expectTypeOf(reading).toMatchTypeOf<StageRunner>();
  });

  it('events are a union discriminated by type', () => {
    const check = (event: LoopEvent): void => {
      if (event.type === 'stage_completed') expectTypeOf(event.stage).toBeString();
      if (event.type === 'loop_blocked') expectTypeOf(event.stopped_on).toEqualTypeOf<StopReason>();
    };
    expectTypeOf(check).toBeFunction();
  });

  it('both filesystems implement the port', () => {
    expectTypeOf(createNodeFileSystem).returns.toMatchTypeOf<FileSystem>();
    expectTypeOf(createMemoryFileSystem).returns.toMatchTypeOf<FileSystem>();
    expectTypeOf<ConformanceTestApi['it']>().toBeFunction();
  });
});
