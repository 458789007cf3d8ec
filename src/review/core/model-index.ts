import type { NormalizedTest } from '../contracts/test-report.js';
import type { ContractKey } from './contract-slots.js';

/** An id defined twice in one contract. @public */
export interface DuplicateId {
  readonly key: ContractKey;
  readonly id: string;
}

// An id → values index under construction: a lone value stays unwrapped until a second one arrives (no array yet).
type LinkIndex = Map<string, string | string[]>;

// Adds `value` under `key` (a repeat of the key's last value is dropped): one value bare, two an exact pair, more grown by push.
function push(map: LinkIndex, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, value);
  else if (typeof list === 'string') {
    if (list !== value) map.set(key, [list, value]);
  } else if (list[list.length - 1] !== value) list.push(value);
}

// Links `value` to every id in `ids` (an indexed loop: no iterator objects per list).
function linkEach(map: LinkIndex, ids: readonly string[], value: string): void {
  for (let index = 0; index < ids.length; index++) push(map, ids[index] as string, value);
}

/** Indexes the value of each item under every id the item names (see linkEach), every list exact-size. Pure. @internal */
export function indexLinks<T>(
  items: readonly T[],
  ids: (item: T) => readonly string[],
  value: (item: T) => string,
): Map<string, string[]> {
  const index: LinkIndex = new Map();
  for (let at = 0; at < items.length; at++) linkEach(index, ids(items[at] as T), value(items[at] as T));
  return finishLinkIndex(index);
}

// Finishes an index: every list an exact-size array (a list grown by push has up to 16 slots to spare; the indexes live for the whole review).
function finishLinkIndex(map: LinkIndex): Map<string, string[]> {
  map.forEach((list, key) => {
    if (typeof list === 'string') map.set(key, [list]);
    else if (list.length > 2) map.set(key, list.slice());
  });
  return map as Map<string, string[]>;
}

// Ids that ascend strictly cannot repeat, so a list in id order (the usual order of a generated contract) is indexed
// without asking whether each id was seen; any other order falls back to that check, with the same result.

/** Indexes a list by id, keeping the first definition and recording the duplicates. @internal */
export function indexById<T extends { readonly id: string }>(
  key: ContractKey,
  items: readonly T[],
  duplicates: DuplicateId[],
): Map<string, T> {
  const map = new Map<string, T>();
  let previous = '';
  let ascending = true;
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as T;
    if (ascending && (index === 0 || item.id > previous)) {
      previous = item.id;
      map.set(item.id, item);
      continue;
    }
    ascending = false;
    if (map.has(item.id)) duplicates.push({ key, id: item.id });
    else map.set(item.id, item);
  }
  return map;
}

// True when the ids of `items` ascend strictly (so none repeats).
function ascendingIds(items: readonly { readonly id: string }[]): boolean {
  for (let index = 1; index < items.length; index++)
    if (!((items[index] as { readonly id: string }).id > (items[index - 1] as { readonly id: string }).id))
      return false;
  return true;
}

/** Records the ids defined more than once in a list that is not indexed (the first definition counts). @internal */
export function recordDuplicates(
  key: ContractKey,
  items: readonly { readonly id: string }[],
  duplicates: DuplicateId[],
): void {
  if (ascendingIds(items)) return;
  const seen = new Set<string>();
  for (let index = 0; index < items.length; index++) {
    const id = (items[index] as { readonly id: string }).id;
    if (seen.has(id)) duplicates.push({ key, id });
    else seen.add(id);
  }
}

/**
 * The model's `testsOf`: test ids covering each story or requirement id, both fields together in test order (a
 * repeat of a key's last value dropped), keyed in first-seen order. Pure. @internal
 */
export function testsOfIndex(tests: readonly NormalizedTest[]): Map<string, string[]> {
  const testsOf: LinkIndex = new Map();
  for (let index = 0; index < tests.length; index++) {
    const test = tests[index] as NormalizedTest;
    linkEach(testsOf, test.story_ids, test.id);
    linkEach(testsOf, test.requirement_ids, test.id);
  }
  return finishLinkIndex(testsOf);
}
