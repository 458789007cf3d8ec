// The pipeline the CLI drives — the part every host has of its own: the demo's stand-in agents for stages
// 01–10 (a shell command each) and the library's consistency review as stage 11.
import { fileURLToPath } from 'node:url';
import { createCommandStageRunner, type GoalLoopOptions, SDLC_STAGES } from 'goal-loop';
import { createExecaCommandRunner } from 'goal-loop/node';
import { createReviewStageRunner } from 'goal-loop/review';

const agent = fileURLToPath(new URL('../demo/agents/sdlc-agent.mjs', import.meta.url));
const stages = SDLC_STAGES.filter((stage) => stage >= '01' && stage <= '11-feedback-loop');

/** The stages, their runner and the command runner of the demo pipeline. */
export function demoPipeline(): Pick<GoalLoopOptions, 'stages' | 'runner' | 'commands'> {
  const commands = createExecaCommandRunner();
  const agents = Object.fromEntries(stages.slice(0, -1).map((stage) => [stage, `node "${agent}"`]));
  const runner = createCommandStageRunner({ commands, stages: agents, fallback: createReviewStageRunner() });
  return { stages, runner, commands };
}
