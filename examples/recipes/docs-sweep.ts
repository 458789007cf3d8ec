// Recipe 1, overnight docs sweep (preventive/perfective): a verifiable goal; a failing docs check reruns 03-documentation only.
import { readFile } from 'node:fs/promises';
import { createCommandStageRunner, GoalLoop } from 'goal-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { expectStop, printEvent, tempProject } from '../shared.js';

const project = await tempProject('docs-sweep');
const runDir = '.goal-loop/runs/nightly';
await project.write(`${runDir}/goal.json`, await readFile(new URL('./docs-sweep.goal.json', import.meta.url), 'utf8'));

// The documentation agent: its first pass forgets the high-level design.
await project.write(
  'agents/docs.mjs',
  `
import { mkdirSync, writeFileSync } from 'node:fs';
const dir = process.env.GOAL_LOOP_RUN_DIR + '/artifacts/stages/03-documentation';
const types = process.env.GOAL_LOOP_REASON === 'retry' ? ['BRD', 'FRD', 'HLD'] : ['BRD', 'FRD'];
mkdirSync(dir, { recursive: true });
writeFileSync(dir + '/documentation.json', JSON.stringify({ documents: types.map((type) => ({ type, path: 'docs/' + type + '.md', covers: [] })) }));
console.log('wrote ' + types.join(', '));
`,
);
// The project's own docs check (whatever the project declares as one): every document type must be there.
await project.write(
  'scripts/docs-check.mjs',
  `
import { readFileSync } from 'node:fs';
const doc = JSON.parse(readFileSync('${runDir}/artifacts/stages/03-documentation/documentation.json', 'utf8'));
const missing = ['BRD', 'FRD', 'HLD'].filter((type) => !doc.documents.some((d) => d.type === type));
if (missing.length > 0) { console.error('missing: ' + missing.join(', ')); process.exit(1); }
`,
);

const commands = createExecaCommandRunner();
const loop = new GoalLoop({
  fs: createNodeFileSystem(project.root),
  runDir,
  stages: ['03-documentation'],
  runner: createCommandStageRunner({ commands, stages: { '03-documentation': 'node agents/docs.mjs' } }),
  commands,
  maxIterations: 2,
  onEvent: printEvent,
});
expectStop(await loop.run(), 'complete');
await project.dispose();
