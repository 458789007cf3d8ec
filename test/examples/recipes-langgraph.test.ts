import { describe, expect, it } from 'vitest';
import { langGraphStageRunner } from '../../examples/recipes/langgraph/graph-stage.js';
import { releaseGraph } from '../../examples/recipes/langgraph/release-graph.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { StageContext } from '../../src/goal/stage-runner.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// The LangGraph.js recipe: an interrupt() is the stage awaiting approval (the loop stops ask_user), the next run
// resumes the graph from its checkpoint with the human's answer; the graph's cost and the loop's signal pass through.

// The recipe's graph, its draft node recording each task it drafts (and, if given, seeing the graph's signal).
function graphOf(drafted: string[], onDraft: (signal?: AbortSignal) => Promise<void> = async () => {}) {
  return releaseGraph(async (task, signal) => {
    await onDraft(signal);
    drafted.push(task);
    return { notes: `notes for ${task}`, costUsd: 0.02 };
  });
}

const input = (stageId: string, context: StageContext) => ({ task: `${stageId} #${context.iteration}` });

function loopOf(graph: ReturnType<typeof graphOf>, answers: Map<string, string>, signal?: AbortSignal) {
  const runner = langGraphStageRunner({ graph, input, answer: async (stageId) => answers.get(stageId) });
  const fs = createMemoryFileSystem();
  return () =>
    new GoalLoop({ fs, runDir: '.goal-loop/runs/r-1', stages: ['release'], runner, ...(signal ? { signal } : {}) });
}

describe('LangGraph.js stage runner', () => {
  it('an interrupt stops the loop ask_user; after the answer the next run resumes the graph where it stopped', async () => {
    const drafted: string[] = [];
    const graph = graphOf(drafted);
    const answers = new Map<string, string>();
    const loop = loopOf(graph, answers);

    const asked = await loop().run();
    expect(asked.stoppedOn).toBe('ask_user');
    expect(asked.reason).toContain('Approve: notes for release #1?');
    expect(asked.spentUsd).toBeCloseTo(0.02, 12);

    const stillWaiting = await loop().run();
    expect(stillWaiting.stoppedOn).toBe('ask_user');

    answers.set('release', 'yes');
    const done = await loop().run();
    expect(done.stoppedOn).toBe('complete');
    expect(drafted).toEqual(['release #1']);
    expect(done.spentUsd).toBeCloseTo(0.02, 12);
    const state = await graph.getState({ configurable: { thread_id: '.goal-loop/runs/r-1#release' } });
    expect(state.values).toMatchObject({ approved: true, costUsd: 0.02 });
    expect(state.next).toEqual([]);
  });

  it("passes the loop's signal into the graph: an abort during a node stops the loop aborted", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const graph = graphOf([], (signal) => {
      seen = signal;
      controller.abort(new Error('Ctrl-C'));
      return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    });
    const result = await loopOf(graph, new Map(), controller.signal)().run();
    expect(result.stoppedOn).toBe('aborted');
    expect(seen?.aborted).toBe(true);
  });
});
