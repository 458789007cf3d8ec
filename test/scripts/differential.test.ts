import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../scripts/differential/rules.js';
import { runDifferential } from '../../scripts/differential/run.js';

describe('the differential run against rstack-agents', () => {
  it('explains every disagreement of a fixed sample by a row of docs/interop-rstack.md', async () => {
    const report = await runDifferential({ count: 50, seed: 7 });
    const explained = Object.values(report.explained).reduce((sum, count) => sum + count, 0);
    expect(report.agreements + explained + report.unexplained.length).toBe(50);
    expect(report.unexplained).toEqual([]);
    expect(explained).toBeGreaterThan(0);
  });

  it('is deterministic for a seed', async () => {
    const [first, second] = [
      await runDifferential({ count: 20, seed: 3 }),
      await runDifferential({ count: 20, seed: 3 }),
    ];
    expect(second).toEqual(first);
  });

  it('cites each row of docs/interop-rstack.md once, under its table', () => {
    const doc = readFileSync(new URL('../../docs/interop-rstack.md', import.meta.url), 'utf8');
    const firstCells = new Map<string, string[]>();
    let table = '';
    for (const line of doc.split('\n')) {
      if (line.startsWith('## ')) table = line.slice(3).trim();
      else if (line.startsWith('| '))
        firstCells.set(table, [...(firstCells.get(table) ?? []), line.split(' | ')[0]?.slice(2).trim() ?? '']);
    }
    for (const rule of RULES) expect(firstCells.get(rule.table), rule.id).toContain(rule.row);
    const rows = RULES.map((rule) => `${rule.table}: ${rule.row}`);
    expect(new Set(rows).size).toBe(rows.length);
  });
});
