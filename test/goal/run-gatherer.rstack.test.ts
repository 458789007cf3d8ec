import { describe, expect, it } from 'vitest';
import type { LoopState } from '../../src/goal/contracts/loop-state.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { createRunGatherer } from '../../src/goal/run-gatherer.js';
import { runPaths } from '../../src/pipeline/run-paths.js';
import { JsonSchemaChecker } from '../../src/runtime/json-schema-check.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// Stage state of a run directory written by rstack-agents, read when loop-state.json has no record of a stage.

const RUN = '.rstack/runs/r-42';
const STAGES = ['03-documentation', '06-architecture', '07-code', '11-feedback-loop'];
const allPass = Object.fromEntries(STAGES.map((stage) => [stage, 'PASS']));

function loopOn(files: Record<string, unknown>) {
  const fs = createMemoryFileSystem({
    files: Object.fromEntries(Object.entries(files).map(([name, json]) => [`${RUN}/${name}`, JSON.stringify(json)])),
  });
  return new GoalLoop({ fs, runDir: RUN, stages: STAGES, runner: { run: async () => ({ status: 'passed' }) } });
}

describe('an rstack-agents run directory', () => {
  it('metrics.json stage_status: a RETRY reruns only the failed stage, not every stage', async () => {
    const evaluation = await loopOn({
      'metrics.json': { stage_status: { ...allPass, '06-architecture': 'FAILED' } },
    }).evaluate();
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.recommendedRerunStages).toEqual(['06-architecture', '11-feedback-loop']);
  });

  it('all stages passed there: the default goal passes', async () => {
    expect((await loopOn({ 'metrics.json': { stage_status: allPass } }).evaluate()).status).toBe('PASS');
  });

  it('a NEEDS_CONTEXT task, a pending approval or a pending decision asks the user; a BLOCKED task blocks', async () => {
    const metrics = { stage_status: allPass };
    const ask = [
      { 'tasks.json': { tasks: [{ id: 'T1', status: 'NEEDS_CONTEXT', stage_id: '07-code' }] } },
      { 'approvals.json': [{ artifact: 'plan.json', stage_id: '03-documentation', status: 'PENDING' }] },
      { 'decisions.json': [{ decision_id: 'DEC-001', status: 'pending' }] },
    ];
    for (const files of ask)
      expect((await loopOn({ 'metrics.json': metrics, ...files }).evaluate()).status).toBe('ASK_USER');
    const blocked = { 'tasks.json': [{ id: 'T2', status: 'BLOCKED', stage_id: '07-code' }] };
    expect((await loopOn({ 'metrics.json': metrics, ...blocked }).evaluate()).status).toBe('BLOCK');
  });

  it('loop-state.json wins for a stage it has a record of; rstack-agents files fill the others', async () => {
    const fs = createMemoryFileSystem({
      files: {
        [`${RUN}/metrics.json`]: JSON.stringify({ stage_status: { ...allPass, '07-code': 'FAILED' } }),
        [`${RUN}/tasks.json`]: JSON.stringify([{ id: 'T1', status: 'NEEDS_CONTEXT', stage_id: '03-documentation' }]),
      },
    });
    const gatherer = createRunGatherer({ fs, paths: runPaths(RUN), stages: STAGES, checker: new JsonSchemaChecker() });
    const state = { stage_status: { '07-code': 'passed', '03-documentation': 'pending' } } as unknown as LoopState;
    const facts = await gatherer.gather({ schema_version: 1, goal_id: 'g', min_score: 100, criteria: [] }, state, {
      iteration: 1,
      skipCommands: true,
    });
    expect(facts.stageStatuses).toEqual({
      '03-documentation': 'pending',
      '06-architecture': 'passed',
      '07-code': 'passed',
      '11-feedback-loop': 'passed',
    });
  });

  it('a stage nothing says anything about stays pending and is rerun', async () => {
    const evaluation = await loopOn({ 'metrics.json': { stage_status: { '03-documentation': 'PASS' } } }).evaluate();
    expect(evaluation.recommendedRerunStages).toEqual(['06-architecture', '07-code', '11-feedback-loop']);
  });
});

describe('run() on an rstack-agents run directory', () => {
  it('its first iteration runs only the stages rstack has not recorded as passed', async () => {
    const ran: string[] = [];
    const fs = createMemoryFileSystem({
      files: {
        [`${RUN}/metrics.json`]: JSON.stringify({ stage_status: { ...allPass, '07-code': 'FAILED' } }),
      },
    });
    const loop = new GoalLoop({
      fs,
      runDir: RUN,
      stages: STAGES,
      runner: {
        run: async (stage) => {
          ran.push(stage);
          return { status: 'passed' };
        },
      },
    });
    const result = await loop.run();
    expect(result.stoppedOn).toBe('complete');
    expect(ran).toEqual(['07-code']);
  });
});
