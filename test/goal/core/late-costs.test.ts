import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopEventSchema } from '../../../src/goal/contracts/events.js';
import type { PendingLateCost } from '../../../src/goal/contracts/late-cost.js';
import { type LoopState, loopStateSchema } from '../../../src/goal/contracts/loop-state.js';
import { foldLateCosts, forgetRemovedLateCosts } from '../../../src/goal/core/late-costs.js';
import { initialState } from '../../../src/goal/core/session-transitions.js';

const TS = '2026-01-01T00:00:00.000Z';
const DIR = 'run/spend-pending';

const state = (spentUsd = 0): LoopState =>
  initialState({ goalId: 'g', goalHash: 'h', stages: ['a', 'b'], iteration: 3, spentUsd, nextSeq: 10, ts: TS });

const cost = (name: string, costUsd: number, stage = 'a'): PendingLateCost => ({
  name,
  path: `${DIR}/${name}`,
  record: { stage, iteration: 2, cost_usd: costUsd, settled_at: TS },
});
const damaged = (name: string): PendingLateCost => ({ name, path: `${DIR}/${name}`, problem: 'Not valid JSON' });

describe('foldLateCosts', () => {
  it('adds each new cost on top of the larger of the record and metrics.json, with one event per file', () => {
    const fold = foldLateCosts(state(1), {
      pending: [cost('x.json', 2), cost('y.json', 0.5, 'b')],
      spentUsd: 3,
      ts: TS,
    });
    expect(fold.state.spent_usd).toBe(5.5);
    expect(fold.events.map((event) => loopEventSchema.parse(event))).toEqual([
      expect.objectContaining({ type: 'late_cost_recorded', seq: 10, stage: 'a', stage_iteration: 2, cost_usd: 2 }),
      expect.objectContaining({ type: 'late_cost_recorded', seq: 11, stage: 'b', path: `${DIR}/y.json` }),
    ]);
    expect(fold.state.outbox).toEqual(fold.events);
    expect(fold.state.late_costs).toEqual({ folded: ['x.json', 'y.json'], unreadable: [] });
    expect(fold.remove.map((file) => file.name)).toEqual(['x.json', 'y.json']);
    expect(loopStateSchema.parse(fold.state)).toEqual(fold.state);
  });

  it('adds decimal late costs to their decimal total (0.1 + 0.2 on 0.3 is 0.6)', () => {
    const fold = foldLateCosts(state(0.3), {
      pending: [cost('x.json', 0.1), cost('y.json', 0.2)],
      spentUsd: 0,
      ts: TS,
    });
    expect(fold.state.spent_usd).toBe(0.6);
  });

  it('a file the record already counted is removed again but never counted again (a crash before its removal)', () => {
    const first = foldLateCosts(state(), { pending: [cost('x.json', 2)], spentUsd: 0, ts: TS });
    const again = foldLateCosts(first.state, { pending: [cost('x.json', 2)], spentUsd: 2, ts: TS });
    expect(again.state).toBe(first.state);
    expect(again.events).toEqual([]);
    expect(again.remove.map((file) => file.name)).toEqual(['x.json']);
  });

  it('forgets a counted file once it is gone, and leaves no trace in a clean record', () => {
    const first = foldLateCosts(state(), { pending: [cost('x.json', 2)], spentUsd: 0, ts: TS });
    const forgotten = forgetRemovedLateCosts(first.state, first.remove, TS);
    expect(forgotten.late_costs).toBeUndefined();
    expect(forgotten.outbox).toEqual([]);
    expect(forgotten.spent_usd).toBe(2);
    expect(forgetRemovedLateCosts(forgotten, first.remove, TS)).toBe(forgotten);
    // Gone by other means (the listing no longer has it): pruned by the next fold, with no event.
    const pruned = foldLateCosts(first.state, { pending: [], spentUsd: 2, ts: TS });
    expect(pruned.state.late_costs).toBeUndefined();
    expect(pruned.events).toEqual([]);
  });

  it('reports a damaged file once, keeps it, and counts nothing for it', () => {
    const first = foldLateCosts(state(), { pending: [damaged('bad.json')], spentUsd: 0, ts: TS });
    expect(first.events).toEqual([
      expect.objectContaining({ type: 'late_cost_unreadable', path: `${DIR}/bad.json`, reason: 'Not valid JSON' }),
    ]);
    expect(first.remove).toEqual([]);
    expect(first.state.spent_usd).toBe(0);
    const again = foldLateCosts(first.state, { pending: [damaged('bad.json')], spentUsd: 0, ts: TS });
    expect(again.state).toBe(first.state);
    const fixed = foldLateCosts(first.state, { pending: [cost('bad.json', 1)], spentUsd: 0, ts: TS });
    expect(fixed.state).toMatchObject({ spent_usd: 1, late_costs: { folded: ['bad.json'], unreadable: [] } });
  });

  it('with nothing pending returns the record itself', () => {
    const clean = state(4);
    expect(foldLateCosts(clean, { pending: [], spentUsd: 9, ts: TS })).toEqual({
      state: clean,
      events: [],
      remove: [],
    });
  });

  it('property: whatever the order of writes, folds and crashes before removal, each cost counts exactly once', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), cents: fc.integer({ min: 1, max: 500 }) }),
      fc.record({ kind: fc.constant('fold' as const), crash: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let record = state();
        const disk = new Map<string, PendingLateCost>();
        let writtenCents = 0;
        let writes = 0;
        let recorded = 0;
        // One fold; a crash stops it after its commit, before the files are removed.
        const fold = (crash: boolean): void => {
          const result = foldLateCosts(record, { pending: [...disk.values()], spentUsd: record.spent_usd, ts: TS });
          record = result.state;
          recorded += result.events.filter((event) => event.type === 'late_cost_recorded').length;
          if (crash) return;
          for (const file of result.remove) disk.delete(file.name);
          record = forgetRemovedLateCosts(record, result.remove, TS);
        };
        for (const next of steps) {
          if (next.kind === 'fold') fold(next.crash);
          else {
            const name = `${String(writes++).padStart(3, '0')}.json`;
            disk.set(name, cost(name, next.cents / 100));
            writtenCents += next.cents;
          }
        }
        fold(false);
        const settled = record;
        fold(false);
        expect(record).toBe(settled);
        expect(disk.size).toBe(0);
        expect(record.late_costs).toBeUndefined();
        expect(recorded).toBe(writes);
        expect(Math.round(record.spent_usd * 100)).toBe(writtenCents);
      }),
    );
  });
});
