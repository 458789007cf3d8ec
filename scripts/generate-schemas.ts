// Writes the JSON Schemas of the on-disk contracts into schemas/ from their zod definitions.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  calibrationLabelsSchema,
  criticOutcomesSchema,
  feedbackReportSchema,
  stageContractSchemas,
} from '../src/contracts.js';
import { goalSchema } from '../src/goal/contracts/goal.js';
import { verdictFileSchema } from '../src/goal/contracts/verdict.js';
import { discriminate } from './discriminate-schema.js';

const BASE = 'https://unpkg.com/goal-loop/schemas/';

const contracts: Record<string, { schema: z.ZodType; title: string; io: 'input' | 'output' }> = {
  'goal.schema.json': { schema: goalSchema, title: 'goal-loop goal definition (goal.json)', io: 'input' },
  'goal-verdict.schema.json': {
    schema: verdictFileSchema,
    title: 'goal-loop judge verdicts (goal-verdict.json)',
    io: 'input',
  },
  'critic-labels.schema.json': {
    schema: calibrationLabelsSchema,
    title: 'goal-loop critic calibration labels',
    io: 'input',
  },
  'critic-outcomes.schema.json': {
    schema: criticOutcomesSchema,
    title: 'goal-loop critic outcomes (what happened to each execution after its pipeline)',
    io: 'input',
  },
  'feedback.schema.json': {
    schema: feedbackReportSchema,
    title: 'Consistency review report (feedback.json, contract 1.1)',
    io: 'output',
  },
  ...Object.fromEntries(
    Object.entries(stageContractSchemas).map(([key, schema]) => [
      `stages/${key.replaceAll('_', '-')}.schema.json`,
      { schema, title: `Stage contract ${key}.json`, io: 'input' as const },
    ]),
  ),
};

// Renders one contract as a draft 2020-12 JSON Schema document.
function render(name: string, entry: (typeof contracts)[string]): string {
  const json = z.toJSONSchema(entry.schema, {
    io: entry.io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return `${JSON.stringify({ ...(discriminate(json) as object), $id: `${BASE}${name}`, title: entry.title }, null, 2)}\n`;
}

const check = process.argv.includes('--check');
await mkdir('schemas/stages', { recursive: true });
const stale: string[] = [];
for (const [name, entry] of Object.entries(contracts)) {
  const text = render(name, entry);
  const path = `schemas/${name}`;
  if (check) {
    const current = await readFile(path, 'utf8').catch(() => null);
    if (current !== text) stale.push(path);
  } else await writeFile(path, text);
}
if (stale.length > 0) {
  console.error(`Stale JSON Schemas (run npm run schemas): ${stale.join(', ')}`);
  process.exit(1);
}
