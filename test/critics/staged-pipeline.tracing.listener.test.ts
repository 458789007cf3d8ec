import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraceRecord } from '../../src/critics/contracts/trace.js';
import { setOpenTelemetryLoader } from '../../src/ports/open-telemetry.js';
import type { Tracer } from '../../src/ports/tracer.js';
import { DIR, oneRetry, spec } from './helpers.js';

// The staged pipeline's listener faults: a throwing onEvent changes nothing the pipeline writes or returns, and a
// tracer that cannot start spans is refused.

afterEach(() => {
  setOpenTelemetryLoader(undefined);
  vi.restoreAllMocks();
});

describe('StagedPipeline onEvent faults', () => {
  it('a throwing listener changes neither the result nor trace.jsonl; each throw goes to onListenerError', async () => {
    const quiet = oneRetry();
    const expected = await quiet.pipeline.run({ executionId: 'feat-1', spec });
    const reported: TraceRecord[] = [];
    const { fs, pipeline } = oneRetry({
      onEvent: () => {
        throw new Error('listener bug');
      },
      onListenerError: (_error, record) => reported.push(record),
    });
    const result = await pipeline.run({ executionId: 'feat-1', spec });
    expect(result).toEqual(expected);
    expect(reported).toEqual(result.trace.map((record) => ({ ...record, type: record.kind })));
    expect(await fs.readText(`${DIR}/feat-1/trace.jsonl`)).toBe(await quiet.fs.readText(`${DIR}/feat-1/trace.jsonl`));
    expect(await fs.readText(`${DIR}/feat-1/state.json`)).toBe(await quiet.fs.readText(`${DIR}/feat-1/state.json`));
  });

  it('gives listeners type beside kind, like the goal loop events, while trace.jsonl keeps kind alone', async () => {
    const heard: { type: string; kind: string }[] = [];
    const { fs, pipeline } = oneRetry({ onEvent: (record) => heard.push(record) });
    const result = await pipeline.run({ executionId: 'feat-1', spec });
    expect(heard.map((record) => record.type)).toEqual(result.trace.map((record) => record.kind));
    expect(heard.every((record) => record.type === record.kind)).toBe(true);
    const lines = (await fs.readText(`${DIR}/feat-1/trace.jsonl`))?.trimEnd().split('\n') ?? [];
    expect(lines).toHaveLength(result.trace.length);
    for (const line of lines) expect(JSON.parse(line)).not.toHaveProperty('type');
  });

  it('is reported with console.warn by default', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { pipeline } = oneRetry({
      onEvent: (record) => {
        if (record.kind === 'finished') throw new Error('dashboard offline');
      },
    });
    expect((await pipeline.run({ executionId: 'feat-1', spec })).status).toBe('completed');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /StagedPipeline onEvent listener threw on finished .*dashboard offline/,
    );
  });

  it('refuses a tracer without startSpan, naming the field', () => {
    expect(() => oneRetry({ tracer: {} as Tracer })).toThrow(/tracer: tracer must implement startSpan/);
  });
});
