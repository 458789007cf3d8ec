// The LangGraph.js recipe run: the graph asks for an approval (the loop stops ask_user), a human answers, and the
// next run resumes the graph from its checkpoint and completes.
import { GoalLoop } from 'goal-loop';
import { createNodeFileSystem } from 'goal-loop/node';
import { expectStop, printEvent, tempProject } from '../../shared.js';
import { langGraphStageRunner } from './graph-stage.js';
import { releaseGraph } from './release-graph.js';

const project = await tempProject('langgraph');
const graph = releaseGraph(async (task) => ({ notes: `notes for ${task}`, costUsd: 0.02 }));
const answers = new Map<string, string>();
const runner = langGraphStageRunner({
  graph,
  input: (stageId, context) => ({ task: `${stageId} #${context.iteration}` }),
  answer: async (stageId) => answers.get(stageId),
});
const loop = () =>
  new GoalLoop({
    fs: createNodeFileSystem(project.root),
    runDir: '.goal-loop/runs/r-1',
    stages: ['release'],
    runner,
    onEvent: printEvent,
  });

expectStop(await loop().run(), 'ask_user');
console.log('\na human answers yes');
answers.set('release', 'yes');
expectStop(await loop().run(), 'complete');
await project.dispose();
