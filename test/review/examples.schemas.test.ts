import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stageContractSchemas } from '../../src/review/contracts/registry.js';
import { REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { EXAMPLES, reviewExample } from './run-files.js';
import { schemaErrors, stageSchemaPath } from './shipped-schemas.js';

// The shipped example runs against the shipped JSON Schemas: the reviews' reports, and the stage contracts they hold.

describe('examples/runs', () => {
  it('the feedback.json and consistency_report.json of both reviews validate against the shipped feedback schema', async () => {
    const own = await mkdtemp(join(tmpdir(), 'goal-loop-examples-schema-'));
    try {
      for (const name of ['canonical-bookshop', 'rstack-invoicing']) {
        await reviewExample(name, own);
        for (const path of [
          'artifacts/stages/11-feedback-loop/feedback.json',
          'artifacts/feedback/consistency_report.json',
        ]) {
          const report = JSON.parse(await readFile(join(own, 'runs', name, path), 'utf8')) as unknown;
          expect(schemaErrors('feedback.schema.json', report), `${name}/${path}`).toEqual([]);
        }
      }
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it('the example stage contracts: every canonical one validates against its shipped stage schema, which agrees with the zod schema on all of them', async () => {
    const verdicts: [string, boolean][] = [];
    for (const name of ['canonical-bookshop', 'rstack-invoicing']) {
      for (const slot of REVIEW_CONTRACT_SLOTS) {
        for (const path of [slot.canonicalPath, ...slot.legacyPaths]) {
          const file = join(EXAMPLES, name, path);
          if (
            !(await access(file).then(
              () => true,
              () => false,
            ))
          )
            continue;
          const document = JSON.parse(await readFile(file, 'utf8')) as unknown;
          const errors = schemaErrors(stageSchemaPath(slot.key), document);
          expect(errors.length === 0, `${name}/${path}: ${errors.join('; ')}`).toBe(
            stageContractSchemas[slot.key].safeParse(document).success,
          );
          verdicts.push([`${name}/${path}`, errors.length === 0]);
        }
      }
    }
    const canonical = verdicts.filter(([path]) => path.startsWith('canonical-bookshop/'));
    expect(canonical).toHaveLength(11);
    expect(canonical.filter(([, valid]) => !valid)).toEqual([]);
    expect(verdicts.filter(([path, valid]) => path.startsWith('rstack-invoicing/') && valid).length).toBeGreaterThan(0);
  });
});
