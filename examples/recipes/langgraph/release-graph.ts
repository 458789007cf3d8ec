// The graph the LangGraph.js recipe runs as a stage: draft release notes (a model call), then ask a human to approve
// them with interrupt(). Its state sums the cost of its model calls in `costUsd`.
import { Annotation, interrupt, MemorySaver, StateGraph } from '@langchain/langgraph';

const ReleaseState = Annotation.Root({
  task: Annotation<string>(),
  notes: Annotation<string>(),
  approved: Annotation<boolean>(),
  costUsd: Annotation<number>({ reducer: (spent, more) => spent + more, default: () => 0 }),
});

/** What drafting the notes gives back: the text and what its model call cost. */
export type Draft = (task: string, signal: AbortSignal | undefined) => Promise<{ notes: string; costUsd: number }>;

/** draft → review (interrupts with its question; the answer `yes` approves) → end, checkpointed in memory. */
export function releaseGraph(draft: Draft) {
  return new StateGraph(ReleaseState)
    .addNode('draft', (state, config) => draft(state.task, config.signal))
    .addNode('review', (state) => ({ approved: interrupt(`Approve: ${state.notes}?`) === 'yes' }))
    .addEdge('__start__', 'draft')
    .addEdge('draft', 'review')
    .addEdge('review', '__end__')
    .compile({ checkpointer: new MemorySaver() });
}
