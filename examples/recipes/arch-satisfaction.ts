// Recipe 3, architecture satisfaction (preventive): a judge criterion closed by the feedback stage's
// evidence-backed goal_evaluation, then overridden by a human's goal-verdict.json.
import { readFile } from 'node:fs/promises';
import { createCommandStageRunner, GoalLoop } from 'goal-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { expectStop, printEvent, tempProject } from '../shared.js';

const project = await tempProject('arch-satisfaction');
const runDir = '.goal-loop/runs/arch-1';
await project.write(
  `${runDir}/goal.json`,
  await readFile(new URL('./arch-satisfaction.goal.json', import.meta.url), 'utf8'),
);

// The architecture agent: its first design leaves the security controls empty.
await project.write(
  'agents/architecture.mjs',
  `
import { mkdirSync, writeFileSync } from 'node:fs';
const dir = process.env.GOAL_LOOP_RUN_DIR + '/artifacts/stages/06-architecture';
const controls = process.env.GOAL_LOOP_REASON === 'retry' ? [{ id: 'SC-001', description: 'OAuth2 sign-in', nfr_ids: ['NFR-001'] }] : [];
mkdirSync(dir, { recursive: true });
writeFileSync(dir + '/system_design.json', JSON.stringify({ services: [{ name: 'api' }], api_endpoints: [{ method: 'POST', path: '/login', service: 'api' }], security_controls: controls }));
console.log(controls.length + ' security control(s)');
`,
);
// The reviewer (stage 11): judges the design and stamps its claim with the current iteration and its evidence.
await project.write(
  'agents/reviewer.mjs',
  `
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
const run = process.env.GOAL_LOOP_RUN_DIR;
const iteration = Number(process.env.GOAL_LOOP_ITERATION);
const evidence = 'artifacts/stages/06-architecture/system_design.json';
const design = JSON.parse(readFileSync(run + '/' + evidence, 'utf8'));
const met = design.security_controls.length > 0;
const dir = run + '/artifacts/stages/11-feedback-loop';
mkdirSync(dir, { recursive: true });
writeFileSync(dir + '/feedback.json', JSON.stringify({ contract_version: '1.1', issues: [], summary: { critical_count: 0 }, goal_evaluation: {
  goal_id: 'arch-satisfaction', iteration, criteria: [{ criterion_id: 'design-review', result: met ? 'met' : 'not_met', evidence: [evidence],
    reasoning: met ? 'Security controls present.' : 'Security controls section is empty.', maintenance_category: 'preventive',
    recommendation: 'retry', recommended_rerun_stages: met ? [] : ['06-architecture', '11-feedback-loop'] }] } }));
console.log(met ? 'design-review met' : 'design-review not met');
`,
);

const commands = createExecaCommandRunner();
const fs = createNodeFileSystem(project.root);
const options = {
  fs,
  runDir,
  stages: ['06-architecture', '11-feedback-loop'],
  runner: createCommandStageRunner({
    commands,
    stages: { '06-architecture': 'node agents/architecture.mjs', '11-feedback-loop': 'node agents/reviewer.mjs' },
  }),
  commands,
  onEvent: printEvent,
};
const first = await new GoalLoop(options).run();
expectStop(first, 'complete');

// A human disagrees: an explicit verdict outranks the reviewer's claim. It is stamped for the next iteration.
console.log('\nA human writes goal-verdict.json: FAIL, recommendation block.');
await fs.writeText(
  `${runDir}/goal-verdict.json`,
  JSON.stringify({
    criterion_id: 'design-review',
    verdict: 'FAIL',
    judge: 'human:architect',
    reasoning: 'No rejected alternative is named for the stack choice.',
    recommendation: 'block',
    iteration: first.iteration + 1,
  }),
);
expectStop(await new GoalLoop(options).run(), 'blocked');
await project.dispose();
