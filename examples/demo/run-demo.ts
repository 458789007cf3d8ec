// npm run demo: a real goal loop over an SDLC-like pipeline in a fresh temporary folder. The stages are
// real scripts writing real artifacts; stage 11 is the library's consistency review. The first pass
// leaves a requirement without a test, the review reports it CRITICAL, the loop reruns only the testing
// stage (and the review), and the next iteration passes.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCommandStageRunner, exitCodeFor, GoalLoop, renderRunReport, SDLC_STAGES } from 'goal-loop';
import type { FeedbackReport } from 'goal-loop/contracts';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { createReviewStageRunner } from 'goal-loop/review';
import { expectStop, printEvent, tempProject } from '../shared.js';

// `npm run demo -- --keep` keeps the project folder, so you can open what a run leaves behind.
const keep = process.argv.includes('--keep');
const project = await tempProject('demo');
const runDir = '.goal-loop/runs/notes-1';
const agent = fileURLToPath(new URL('./agents/sdlc-agent.mjs', import.meta.url));
// The copied goal.json points its "$schema" at this repository's schema, so an editor validates it where it is kept.
const goalText = (await readFile(new URL('./goal.json', import.meta.url), 'utf8')).replace(
  /"\$schema": "[^"]*"/,
  `"$schema": ${JSON.stringify(fileURLToPath(new URL('../../schemas/goal.schema.json', import.meta.url)))}`,
);
await project.write(`${runDir}/goal.json`, goalText);

const stages = SDLC_STAGES.filter((stage) => stage >= '01' && stage <= '11-feedback-loop');
const fs = createNodeFileSystem(project.root);
const commands = createExecaCommandRunner();
const agentStages = Object.fromEntries(
  stages.filter((stage) => stage !== '11-feedback-loop').map((stage) => [stage, `node "${agent}"`]),
);

console.log(`goal-loop demo in ${project.root}`);
console.log(`pipeline: ${stages.join(' → ')}`);
const loop = new GoalLoop({
  fs,
  runDir,
  stages,
  runner: createCommandStageRunner({ commands, stages: agentStages, fallback: createReviewStageRunner() }),
  commands,
  onEvent: (event) => {
    printEvent(event);
    if (event.type === 'stage_completed' && event.stage === '11-feedback-loop') printFindings();
  },
});

// After each review: the findings it reported, with the stage it sends them to.
function printFindings(): void {
  const report = JSON.parse(
    readFileSync(join(project.root, runDir, 'artifacts/stages/11-feedback-loop/feedback.json'), 'utf8'),
  ) as FeedbackReport;
  for (const issue of report.issues.filter((item) => item.severity !== 'INFO')) {
    console.log(
      `    ${issue.severity} ${issue.id}: ${issue.description} → ${issue.remediation.agent_to_rerun ?? 'a human'}`,
    );
  }
}

const result = await loop.run();
expectStop(result, 'complete');
console.log(`exit code: ${exitCodeFor(result)}; spent ${result.spentUsd} USD; run-wide iteration ${result.iteration}`);
// The whole run as Markdown: each iteration's stages, score and failing criteria, and a Mermaid diagram of its path.
await fs.writeText(`${runDir}/report.md`, await renderRunReport({ fs, runDir }));
if (keep) {
  console.log(`\nkept the run directory: ${join(project.root, runDir)}`);
  console.log('  report.md, events.jsonl, loop-state.json, iterations/<n>/evaluation.json, artifacts/stages/<stage>/…');
} else {
  console.log(`\n(the project folder is removed; run \`npm run demo -- --keep\` to keep it)`);
  await project.dispose();
}
