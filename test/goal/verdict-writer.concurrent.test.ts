import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseVerdictFile } from '../../src/goal/contracts/verdict.js';
import { writeVerdict } from '../../src/goal/verdict-writer.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { ok } from '../ports/tools.js';
import { goalJson, judge, PATHS, RUN } from './helpers.js';
import { project, RUN as TOOLS_RUN } from './tools/project.js';

// Concurrent writers of goal-verdict.json each land: none overwrites another, and every read sees a whole file.

const JUDGES = Array.from({ length: 20 }, (_, index) => `j${index}`);
const GOAL = goalJson(JUDGES.map((id) => judge(id)));

// The criterion ids goal-verdict.json holds, in file order.
async function idsIn(fs: FileSystem, path = PATHS.verdicts): Promise<string[]> {
  const parsed = parseVerdictFile(JSON.parse((await fs.readText(path)) ?? 'null'));
  return parsed.verdicts.map((verdict) => verdict.criterion_id ?? '?');
}

describe('concurrent writeVerdict calls in one process', () => {
  let base = '';
  afterEach(async () => {
    if (base !== '') await rm(base, { recursive: true, force: true });
    base = '';
  });

  it('20 at once on the memory filesystem all land', async () => {
    const fs = createMemoryFileSystem({ files: { [PATHS.goal]: GOAL } });
    await Promise.all(JUDGES.map((criterionId) => writeVerdict({ fs, runDir: RUN, criterionId, verdict: 'PASS' })));
    expect((await idsIn(fs)).sort()).toEqual([...JUDGES].sort());
  });

  it('20 at once on the real filesystem all land, a FAIL with block among them, and a reader always sees a whole file', async () => {
    base = await mkdtemp(join(tmpdir(), 'goal-loop-verdicts-'));
    await mkdir(join(base, RUN), { recursive: true });
    await writeFile(join(base, PATHS.goal), GOAL);
    const fs = createNodeFileSystem(base);
    let writing = true;
    let reads = 0;
    const reader = (async () => {
      while (writing) {
        const text = await readFile(join(base, PATHS.verdicts), 'utf8').catch(() => null);
        if (text !== null) {
          expect(() => JSON.parse(text)).not.toThrow();
          reads += 1;
        }
        await new Promise((done) => setImmediate(done));
      }
    })();
    await Promise.all(
      JUDGES.map((criterionId, index) =>
        writeVerdict({
          fs,
          runDir: RUN,
          criterionId,
          ...(index === 7 ? { verdict: 'FAIL', recommendation: 'block' } : { verdict: 'PASS' }),
        }),
      ),
    );
    writing = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    expect((await idsIn(fs)).sort()).toEqual([...JUDGES].sort());
    const file = JSON.parse(await readFile(join(base, PATHS.verdicts), 'utf8'));
    expect(file.verdicts.find((verdict: { criterion_id: string }) => verdict.criterion_id === 'j7')).toMatchObject({
      verdict: 'FAIL',
      recommendation: 'block',
    });
    // The writers' lock is gone once they are done.
    expect(await fs.stat(`${PATHS.verdicts}.lock`)).toBeNull();
  });

  it('10 concurrent submit_verdict tool calls all land', async () => {
    const p = project();
    const calls = Array.from({ length: 10 }, (_, index) =>
      p.submit.handler({
        run_dir: TOOLS_RUN,
        criterion_id: 'design',
        verdict: 'PASS',
        source: 'human',
        judge: `h${index}`,
      }),
    );
    for (const output of await Promise.all(calls)) ok(output);
    const text = (await p.fs.readText(`${TOOLS_RUN}/goal-verdict.json`)) ?? 'null';
    const judges = parseVerdictFile(JSON.parse(text)).verdicts.map((verdict) => verdict.judge);
    expect(judges.sort()).toEqual(Array.from({ length: 10 }, (_, index) => `human:h${index}`).sort());
  });
});
