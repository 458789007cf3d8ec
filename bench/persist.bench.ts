// Run-machinery benchmarks: reading a log backwards over one very long line; schema patterns on RE2.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeFileSystem } from '../src/node.js';
import { JsonlLog, readLastSeq } from '../src/runtime/jsonl-log.js';
import { linearRegExp } from '../src/runtime/linear-regexp.js';
import { medianMs, ms, ratio, row } from './format.js';
import { SLOW_SHAPES } from './regex-shapes.js';

const MB = 1024 * 1024;

// One committed record, then a line of `mb` megabytes with no newline (a torn append, or a foreign writer).
const longLine = (mb: number) => `{"seq":0}\n{"seq":1,"pad":"${'x'.repeat(mb * MB)}`;

// readLastSeq has to walk back over the whole long line to reach the record before it: linear means 16× for 16×.
async function longLineLookup(): Promise<void> {
  console.log('\nLast seq behind one long line without a newline (read backwards)');
  const root = await mkdtemp(join(tmpdir(), 'goal-loop-bench-'));
  const fs = createNodeFileSystem(root);
  await writeFile(join(root, '1mb.jsonl'), longLine(1));
  await writeFile(join(root, '16mb.jsonl'), longLine(16));
  const small = await medianMs('1 MB line', () => readLastSeq(fs, '1mb.jsonl'), { time: 500 });
  const large = await medianMs('16 MB line', () => readLastSeq(fs, '16mb.jsonl'), { time: 1_000, warmupIterations: 2 });
  row('1 MB line', ms(small));
  row('16 MB line', ms(large), `${ratio(large / small)} the 1 MB time (linear: ≈ 16×)`);
  // The writer then cuts the fragment off before its next append (truncate to the last newline).
  const repair = await medianMs(
    'repair 16 MB',
    async () => {
      await writeFile(join(root, 'torn.jsonl'), longLine(16));
      await new JsonlLog(fs, 'torn.jsonl').appendOnce([{ seq: 1 }]);
    },
    { time: 1_000, warmupIterations: 2 },
  );
  row('write, then remove a 16 MB torn line + append', ms(repair), `${ratio(repair / large)} the lookup`);
  await rm(root, { recursive: true, force: true });
}

// Each shape a backtracking engine takes seconds to minutes on, on its near-miss value, against a plain pattern.
async function schemaPatterns(): Promise<void> {
  console.log('\nJSON Schema patterns on RE2: the shapes that backtrack, on the value that almost matches');
  const plain = linearRegExp('^[a-z]+$', 'u');
  const floor = await medianMs('plain', () => plain.test(`${'a'.repeat(6000)}!`));
  row('^[a-z]+$ on 6,001 characters', ms(floor));
  for (const { name, pattern, nearMiss } of SLOW_SHAPES) {
    const compiled = linearRegExp(pattern, 'u');
    const started = performance.now();
    compiled.test(nearMiss);
    const first = performance.now() - started;
    const time = await medianMs(name, () => compiled.test(nearMiss));
    row(
      name,
      ms(time),
      `${nearMiss.length} characters, ${ratio(time / floor)} the plain pattern; first run ${ms(first)}`,
    );
  }
}

/** Every run-machinery benchmark. */
export async function benchPersist(): Promise<void> {
  await longLineLookup();
  await schemaPatterns();
}
