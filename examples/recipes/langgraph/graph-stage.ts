// A LangGraph.js graph as one GoalLoop stage: an interrupt() in the graph is the stage `awaiting_approval`, and the
// run after a human answered resumes the graph from its checkpoint with that answer.
import { Command, isInterrupted } from '@langchain/langgraph';
import type { StageContext, StageOutcome, StageRunner } from 'goal-loop';

/** What the recipe uses of a graph compiled with a checkpointer (`graph.compile({ checkpointer })`). */
export interface CheckpointedGraph {
  invoke(input: unknown, config: GraphConfig): Promise<Record<string, unknown>>;
  getState(config: GraphConfig): Promise<{
    readonly values: Record<string, unknown>;
    readonly tasks: readonly { readonly interrupts: readonly { readonly value?: unknown }[] }[];
  }>;
}
type GraphConfig = { readonly configurable: { readonly thread_id: string }; readonly signal?: AbortSignal };

/**
 * A stage runner running `graph` on one thread per run and stage (the checkpointer keeps it across runs). `input`
 * is the graph's input for a fresh pass; `answer` is the human's answer to a pending interrupt, undefined while
 * there is none. The graph's state holds the spend of its model calls in `costUsd` (a summing channel).
 */
export function langGraphStageRunner(options: {
  readonly graph: CheckpointedGraph;
  readonly input: (stageId: string, context: StageContext) => unknown;
  readonly answer: (stageId: string, question: unknown) => Promise<unknown>;
}): StageRunner {
  return {
    async run(stageId, context) {
      const config = { configurable: { thread_id: `${context.runDir}#${stageId}` }, signal: context.signal };
      const before = await options.graph.getState(config);
      const question = before.tasks.flatMap((task) => task.interrupts)[0];
      const answer = question === undefined ? undefined : await options.answer(stageId, question.value);
      if (question !== undefined && answer === undefined) return awaiting(question.value, 0);
      const input = question === undefined ? options.input(stageId, context) : new Command({ resume: answer });
      const after = await options.graph.invoke(input, config);
      const costUsd = Number(after.costUsd ?? 0) - Number(before.values.costUsd ?? 0);
      return isInterrupted(after) ? awaiting(after.__interrupt__[0]?.value, costUsd) : { status: 'passed', costUsd };
    },
  };
}

// An interrupt's question as the stage's outcome: a human must answer before the graph goes on.
const awaiting = (question: unknown, costUsd: number): StageOutcome => ({
  status: 'awaiting_approval',
  costUsd,
  detail: typeof question === 'string' ? question : JSON.stringify(question),
});
