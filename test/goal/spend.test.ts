import { describe, expect, it } from 'vitest';
import { readRecordedSpend } from '../../src/goal/spend.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// The recorded spend in metrics.json: what an unreadable value is reported as.

const PATH = 'runs/r/metrics.json';
const read = (text: string) => readRecordedSpend(createMemoryFileSystem({ files: { [PATH]: text } }), PATH);

describe('readRecordedSpend', () => {
  it('says what an out-of-range cumulative_cost_usd is, not "null"', async () => {
    await expect(read('{"cumulative_cost_usd": 1e999}')).rejects.toMatchObject({
      code: 'INVALID_CONTRACT',
      message: expect.stringContaining('(got Infinity: the file holds a number too large for a double, such as 1e999)'),
    });
    await expect(read('{"cumulative_cost_usd": -1e999}')).rejects.toMatchObject({
      message: expect.stringContaining('(got -Infinity:'),
    });
  });

  it('still quotes any other value as JSON', async () => {
    await expect(read('{"cumulative_cost_usd": "twelve"}')).rejects.toMatchObject({
      message: expect.stringContaining('(got "twelve")'),
    });
    await expect(read('{"cumulative_cost_usd": 1.5}')).resolves.toBe(1.5);
  });
});
