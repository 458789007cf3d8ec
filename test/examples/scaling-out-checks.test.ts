import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRunEvents, findOverlaps, type StageInterval, stageIntervals } from '../../examples/scaling-out/checks.js';
import type { StageRecord } from '../../examples/scaling-out/pipeline.js';
import type { LoopEventDraft } from '../../src/goal/contracts/events.js';
import type { LoopEvent } from '../../src/index.js';

const base = { ts: '2026-01-01T00:00:00.000Z', max_iterations: 4, goal_id: 'pipeline-complete' };

// A run's log: `iterations` iterations, a retry between them, then the decision; seq numbered in order.
function runLog(iterations: number, decision: 'complete' | 'blocked' = 'complete'): LoopEvent[] {
  const drafts: LoopEventDraft[] = [];
  for (let iteration = 1; iteration <= iterations; iteration++) {
    drafts.push({ ...base, iteration, type: 'loop_iteration_started', stages: ['07-code'] });
    if (iteration < iterations)
      drafts.push({ ...base, iteration, type: 'loop_iteration_retrying_stages', stages: ['07-code'], reason: 'x' });
  }
  drafts.push(
    decision === 'complete'
      ? { ...base, iteration: iterations, type: 'loop_completed', score: 100, reason: 'met' }
      : { ...base, iteration: iterations, type: 'loop_blocked', stopped_on: 'blocked', reason: 'blocked' },
  );
  return drafts.map((draft, seq) => ({ ...draft, seq }) as LoopEvent);
}
const renumber = (events: LoopEvent[]): LoopEvent[] => events.map((event, seq) => ({ ...event, seq }));

describe('checkRunEvents', () => {
  const expected = { stoppedOn: 'complete', iterations: 3 } as const;

  it('accepts one decision, iterations 1…n and seq 0…n', () => {
    expect(checkRunEvents('r-01', runLog(3), expected)).toEqual([]);
    expect(checkRunEvents('r-10', runLog(2, 'blocked'), { stoppedOn: 'blocked', iterations: 2 })).toEqual([]);
  });

  it('names a second decision, a missing one, and the wrong one', () => {
    const log = runLog(3);
    const twice = renumber([...log, { ...log[0], iteration: 4 } as LoopEvent, log.at(-1) as LoopEvent]);
    expect(checkRunEvents('r-01', twice, expected).join('\n')).toMatch(/r-01: 2 decisions recorded/);
    expect(checkRunEvents('r-01', runLog(3).slice(0, -1), expected).join('\n')).toMatch(
      /0 decisions recorded \(none\)/,
    );
    expect(checkRunEvents('r-01', runLog(3, 'blocked'), expected)).toEqual([
      'r-01: stopped on blocked, expected complete',
    ]);
  });

  it('names an iteration counted twice or skipped, and a count that is not the expected one', () => {
    const log = runLog(3);
    const repeated = renumber([
      log[0],
      log[1],
      { ...(log[2] as LoopEvent), iteration: 1 },
      ...log.slice(3),
    ] as LoopEvent[]);
    expect(checkRunEvents('r-02', repeated, expected)).toEqual([
      'r-02: iterations started 1, 1, 3: not 1, 2, 3 … (at position 2)',
    ]);
    expect(checkRunEvents('r-02', runLog(2), expected)).toEqual(['r-02: 2 iterations, expected 3']);
  });

  it('names an event appended twice (a repeated seq) and a decision that is not the last event', () => {
    const log = runLog(2);
    const duplicated = [...log.slice(0, 2), log[1] as LoopEvent, ...log.slice(2)];
    expect(checkRunEvents('r-03', duplicated, { stoppedOn: 'complete', iterations: 2 })).toEqual([
      'r-03: event seq 1 at line 3: an event was appended twice or lost',
    ]);
    const after = renumber([...log, { ...base, iteration: 2, type: 'stage_started', stage: 'a' } as LoopEvent]);
    expect(checkRunEvents('r-03', after, { stoppedOn: 'complete', iterations: 2 })).toEqual([
      'r-03: the decision is not the last event (stage_started came after it)',
    ]);
  });

  it('accepts a lock takeover after the decision (a job delivered again, the last holder never released)', () => {
    const takeover = { ...base, iteration: 2, type: 'lock_taken_over', previous_owner: 'w', heartbeat_age_ms: 4000 };
    const after = renumber([...runLog(2), takeover as LoopEvent]);
    expect(checkRunEvents('r-04', after, { stoppedOn: 'complete', iterations: 2 })).toEqual([]);
  });
});

const record = (pid: number, phase: 'start' | 'end', at: number, stage = '07-code'): StageRecord => ({
  runId: 'r-01',
  stage,
  iteration: 1,
  pid,
  phase,
  at,
});

describe('stageIntervals', () => {
  it('pairs starts with ends, and ends a killed worker’s open stage at its death', () => {
    const records = [record(1, 'start', 0), record(1, 'end', 10), record(2, 'start', 20), record(3, 'start', 50)];
    const { intervals, problems } = stageIntervals(records, new Map([[2, 30]]));
    expect(intervals.map(({ pid, start, end }) => [pid, start, end])).toEqual([
      [1, 0, 10],
      [2, 20, 30],
    ]);
    expect(problems).toEqual(['r-01: 07-code (iteration 1) on pid 3 never ended, yet its worker was not killed']);
  });

  it('names an end without a start and a start repeated without an end', () => {
    const { problems } = stageIntervals([record(1, 'end', 5), record(2, 'start', 6), record(2, 'start', 7)], new Map());
    expect(problems).toContain('r-01: 07-code (iteration 1) on pid 1 ended without starting');
    expect(problems).toContain('r-01: 07-code (iteration 1) on pid 2 started twice without ending');
  });
});

describe('findOverlaps', () => {
  const interval = (pid: number, start: number, end: number, runId = 'r-01'): StageInterval => ({
    runId,
    stage: '07-code',
    iteration: 1,
    pid,
    start,
    end,
  });

  it('accepts back-to-back stage runs, and overlaps across different runs', () => {
    expect(findOverlaps([interval(1, 0, 10), interval(2, 10, 20), interval(3, 5, 15, 'r-02')])).toEqual([]);
  });

  it('names two workers running one run at once, also when a short run sits inside a long one', () => {
    expect(findOverlaps([interval(1, 0, 10), interval(2, 9, 20)])).toEqual([
      'r-01: 07-code (iteration 1) on pid 2 started 1.0 ms before 07-code (iteration 1) on pid 1 ended',
    ]);
    expect(findOverlaps([interval(1, 0, 100), interval(2, 10, 20), interval(3, 30, 40)])).toHaveLength(2);
  });

  it('finds an overlap exactly when some stage run starts before an earlier one ended (property)', () => {
    const spans = fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 100 })), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(spans, (pairs) => {
        const intervals = pairs.map(([start, length], index) => interval(index, start, start + length));
        const overlapping = intervals.some((a, i) =>
          intervals.some((b, j) => i !== j && a.start < b.end && b.start < a.end),
        );
        expect(findOverlaps(intervals).length > 0).toBe(overlapping);
      }),
    );
  });
});
