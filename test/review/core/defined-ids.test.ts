import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineIds } from '../../../src/review/core/defined-ids.js';
import { idSpace } from '../../../src/review/core/link-table.js';
import type { DuplicateId } from '../../../src/review/core/model-index.js';

// Items whose ids come from a small pool, so ids repeat; `at` tells the definitions apart.
const items = fc
  .array(fc.constantFrom('FR-1', 'FR-2', 'FR-3', 'US-1', '__proto__'), { maxLength: 12 })
  .map((ids) => ids.map((id, at) => ({ id, at })));

describe('defined ids', () => {
  it('read as the map of first definitions would, and record every later definition in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom('FR-2', 'US-1', 'X')), items, (before, list) => {
        const first = new Map<string, { id: string; at: number }>();
        const repeated: DuplicateId[] = [];
        for (const item of list)
          if (first.has(item.id)) repeated.push({ key: 'requirement_spec', id: item.id });
          else first.set(item.id, item);
        const duplicates: DuplicateId[] = [];
        const defined = defineIds(idSpace(before), 'requirement_spec', list, duplicates);
        expect(duplicates).toEqual(repeated);
        expect(defined.size).toBe(first.size);
        expect([...defined]).toEqual([...first]);
        expect([...defined.keys()]).toEqual([...first.keys()]);
        expect([...defined.values()]).toEqual([...first.values()]);
        const seen: [string, unknown][] = [];
        defined.forEach((value, key) => {
          seen.push([key, value]);
        });
        expect(seen).toEqual([...first]);
        for (const id of ['FR-1', 'FR-2', 'FR-3', 'US-1', 'X', '__proto__', 'NEVER']) {
          expect(defined.get(id)).toBe(first.get(id));
          expect(defined.has(id)).toBe(first.has(id));
        }
      }),
    );
  });

  it('share the space: an id defined by one contract and named by another keeps one ordinal', () => {
    const space = idSpace([]);
    const duplicates: DuplicateId[] = [];
    const requirements = defineIds(space, 'requirement_spec', [{ id: 'FR-1' }, { id: 'US-1' }], duplicates);
    const stories = defineIds(space, 'jira_tickets', [{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-2' }], duplicates);
    expect(space.ids).toEqual(['FR-1', 'US-1', 'US-2']);
    expect(duplicates).toEqual([{ key: 'jira_tickets', id: 'US-2' }]);
    expect(requirements.has('US-2')).toBe(false);
    expect(stories.get('US-1')).toEqual({ id: 'US-1' });
    expect(stories.has('FR-1')).toBe(false);
  });
});
