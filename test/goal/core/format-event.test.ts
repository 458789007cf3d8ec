import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../../src/errors.js';
import { type LoopEvent, type LoopEventType, loopEventSchema } from '../../../src/goal/contracts/events.js';
import { formatEvent } from '../../../src/goal/core/format-event.js';
import { formatDuration, formatUsd } from '../../../src/goal/core/line-text.js';
import { oneLine } from '../../../src/kit/markdown.js';

const base = { ts: '2026-12-01T06:00:00.000Z', iteration: 2, max_iterations: 3, goal_id: 'notes-release', seq: 7 };

// One event of every type with the line it must print (a Record, so a new type fails to compile here).
const TABLE: Readonly<Record<LoopEventType, readonly [LoopEvent, string]>> = {
  loop_iteration_started: [
    { ...base, type: 'loop_iteration_started', stages: ['08-testing', '11-feedback-loop'], session_iteration: 2 },
    'iteration 2: started (2 of at most 3 this session), running 08-testing, 11-feedback-loop',
  ],
  stage_started: [{ ...base, type: 'stage_started', stage: '08-testing' }, 'iteration 2: stage 08-testing started'],
  stage_completed: [
    {
      ...base,
      type: 'stage_completed',
      stage: '08-testing',
      status: 'failed',
      cost_usd: 0.0125,
      duration_ms: 1520,
      detail: 'exit 1\n  at test.js:3',
    },
    'iteration 2: stage 08-testing failed in 1.5 s, $0.0125 — exit 1 at test.js:3',
  ],
  goal_evaluated: [
    {
      ...base,
      type: 'goal_evaluated',
      status: 'RETRY',
      score: 66.7,
      critical_count: 1,
      failing_stages: [],
      recommended_rerun_stages: ['08-testing'],
      reason: 'Criterion tests failed.',
    },
    'iteration 2: goal notes-release evaluated RETRY, score 66.7, rerun 08-testing — Criterion tests failed.',
  ],
  loop_iteration_retrying_stages: [
    { ...base, type: 'loop_iteration_retrying_stages', stages: ['08-testing'], reason: 'tests failed' },
    'iteration 2: retrying 08-testing — tests failed',
  ],
  loop_completed: [
    { ...base, type: 'loop_completed', score: 100, reason: 'Goal met.' },
    'iteration 2: goal notes-release met, score 100 — Goal met.',
  ],
  loop_blocked: [
    { ...base, type: 'loop_blocked', stopped_on: 'ask_user', reason: 'Judge criterion design has no fresh verdict' },
    'iteration 2: stopped on ask_user — Judge criterion design has no fresh verdict',
  ],
  loop_resumed: [
    { ...base, type: 'loop_resumed', phase: 'running_stages', pending_stages: ['11-feedback-loop'] },
    'iteration 2: resumed an unfinished session (phase running_stages), pending 11-feedback-loop',
  ],
  goal_changed: [
    {
      ...base,
      type: 'goal_changed',
      previous_hash: 'aaaaaaaaaaaaaaaaaaaa',
      current_hash: 'bbbbbbbbbbbbbbbbbbbb',
      accepted: false,
    },
    'iteration 2: goal.json changed since the session started (aaaaaaaaaaaa → bbbbbbbbbbbb), not accepted: the loop asks the user',
  ],
  lock_taken_over: [
    { ...base, type: 'lock_taken_over', previous_owner: 'host-a:4242', heartbeat_age_ms: 650_000 },
    'iteration 2: took over the run lock of host-a:4242 (heartbeat 650.0 s old)',
  ],
  late_cost_recorded: [
    {
      ...base,
      type: 'late_cost_recorded',
      stage: '07-code',
      stage_iteration: 1,
      cost_usd: 2,
      path: '.goal-loop/runs/r-1/spend-pending/1-07-code-9f.json',
    },
    'iteration 2: stage 07-code of iteration 1 reported $2 after the loop stopped waiting; added to the spend',
  ],
  late_cost_unreadable: [
    {
      ...base,
      type: 'late_cost_unreadable',
      path: '.goal-loop/runs/r-1/spend-pending/1-07-code-9f.json',
      reason: '$.cost_usd: expected number,\nreceived string',
    },
    'iteration 2: late cost file .goal-loop/runs/r-1/spend-pending/1-07-code-9f.json is unreadable, not counted and kept — $.cost_usd: expected number, received string',
  ],
};

// The event types the schema declares (read from the schema, not from the table).
const schemaTypes = loopEventSchema.options.map((option) => option.shape.type.value);

describe('formatEvent', () => {
  it.each(schemaTypes)('prints one line for every event type of the schema: %s', (type) => {
    expect(Object.hasOwn(TABLE, type), `no formatEvent case in the table for the event type ${type}`).toBe(true);
    const [event, line] = TABLE[type];
    expect(loopEventSchema.parse(event)).toEqual(event);
    const printed = formatEvent(event);
    expect(printed).toBe(line);
    expect(printed).not.toMatch(/[\r\n]/);
  });

  it('covers nothing the schema does not declare', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...schemaTypes].sort());
  });

  it('words a stage that ran without a detail, and a start without a session count', () => {
    const [completed] = TABLE.stage_completed;
    expect(
      formatEvent({ ...completed, status: 'passed', detail: undefined, duration_ms: 12, cost_usd: 0 } as LoopEvent),
    ).toBe('iteration 2: stage 08-testing passed in 12 ms, $0');
    expect(formatEvent({ ...base, type: 'loop_iteration_started', stages: [], iteration: 1 })).toBe(
      'iteration 1: started (at most 3 per session), running no stage',
    );
  });

  it('words a step() after a step() as the session going on, not as a resume', () => {
    const between = { ...base, type: 'loop_resumed', phase: 'idle', pending_stages: [] } as const;
    expect(formatEvent(between as never)).toBe('iteration 2: continued the open session between iterations');
    expect(formatEvent({ ...between, pending_stages: ['b'] } as never)).toBe(
      'iteration 2: resumed an unfinished session (phase idle), pending b',
    );
  });

  it('says when a lock was taken over because its holder process was gone', () => {
    const [takenOver] = TABLE.lock_taken_over;
    expect(formatEvent({ ...takenOver, reason: 'holder_gone', heartbeat_age_ms: 8_000 } as LoopEvent)).toBe(
      'iteration 2: took over the run lock of host-a:4242 (its process is gone from this host, heartbeat 8.0 s old)',
    );
    expect(formatEvent({ ...takenOver, reason: 'heartbeat_stale' } as LoopEvent)).toBe(TABLE.lock_taken_over[1]);
  });

  it('says when a lock was taken over because its file held no lock record', () => {
    const [takenOver] = TABLE.lock_taken_over;
    expect(formatEvent({ ...takenOver, reason: 'no_record', heartbeat_age_ms: 0 } as LoopEvent)).toBe(
      'iteration 2: took over a run lock file that held no lock record (a loop killed while creating it, or a foreign file)',
    );
  });

  it('refuses a type outside the union instead of guessing, naming event.type on one line', () => {
    expect(() => formatEvent({ ...base, type: 'loop_exploded' } as unknown as LoopEvent)).toThrow(
      'formatEvent(event): unknown event.type "loop_exploded"',
    );
    expect(() => formatEvent({ ...base, type: 'a\nb' } as unknown as LoopEvent)).toThrow('unknown event.type "a b"');
  });

  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    [42, 'number'],
    [[], 'an array'],
  ])('refuses %j with INVALID_OPTIONS naming the argument, not a TypeError', (value, got) => {
    const error = (() => {
      try {
        formatEvent(value as unknown as LoopEvent);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(isGoalLoopError(error, 'INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toBe(`formatEvent(event): expected an object, got ${got}`);
  });

  it('prints ? for a missing or mistyped field, never undefined', () => {
    expect(formatEvent({ type: 'stage_started' } as LoopEvent)).toBe('iteration ?: stage ? started');
    const odd = { type: 'stage_completed', iteration: 'x', stage: 5 } as unknown as LoopEvent;
    expect(formatEvent(odd)).toBe('iteration x: stage 5 ? in ? ms, $?');
    expect(formatEvent({ type: 'loop_resumed', iteration: 1 } as LoopEvent)).toBe(
      'iteration 1: resumed an unfinished session (phase ?), pending ?',
    );
  });

  // Text with line breaks and control characters of every kind a file can hold.
  const hostileText = fc.string({
    unit: fc.constantFrom('a', ' ', '\n', '\r', '\t', '\v', '\f', '\u0000', '\u0085', '\u2028', '\u2029', '\u001b'),
  });

  it('keeps every event on one line whatever its text fields hold (stage, goal_id, stages, reasons)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...schemaTypes), hostileText, (type, text) => {
        const [event] = TABLE[type];
        const hostile = Object.fromEntries(
          Object.entries(event).map(([key, value]) => [
            key,
            key === 'type' ? value : typeof value === 'string' ? `x${text}y` : Array.isArray(value) ? [text] : value,
          ]),
        );
        expect(formatEvent(hostile as unknown as LoopEvent)).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
      }),
    );
  });

  it('keeps text on one line and USD short', () => {
    expect(oneLine('a\r\n   b\n\nc ')).toBe('a b c');
    expect(oneLine('a\u2028b\u2029c\u0085d\u000be\u000cf\u0000g\th')).toBe('a b c d e f g h');
    expect(formatUsd(0.123456)).toBe('$0.1235');
    expect(formatUsd(2)).toBe('$2');
    expect(formatUsd(Number.NaN)).toBe('$?');
    expect(formatDuration(undefined)).toBe('? ms');
  });
});
