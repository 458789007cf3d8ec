// The requirements and the stories of a model as read-only maps over the review's id space: each definition keeps
// the ordinal of its id, so the model holds one table of ids (the space's) instead of one more per contract.
import type { ContractKey } from './contract-slots.js';
import { type IdSpace, intern } from './link-table.js';
import type { DuplicateId } from './model-index.js';

/**
 * The items of one contract by id, the first definition of each id, in definition order: a `ReadonlyMap` whose
 * lookups go through the id space. @internal
 */
export class DefinedIds<T extends { readonly id: string }> implements ReadonlyMap<string, T> {
  readonly #space: IdSpace;
  readonly #items: readonly T[];
  // The item defined at each ordinal (undefined: none); ordinals interned later have none.
  readonly #byOrdinal: (T | undefined)[] = [];

  constructor(space: IdSpace, items: readonly T[], ordinals: Int32Array) {
    this.#space = space;
    this.#items = items;
    // Pushed one by one, so the array stays packed (no holes to look up on its prototype).
    for (let ordinal = 0; ordinal < space.ids.length; ordinal++) this.#byOrdinal.push(undefined);
    for (let index = 0; index < ordinals.length; index++) this.#byOrdinal[ordinals[index] as number] = items[index];
  }

  get size(): number {
    return this.#items.length;
  }

  get(id: string): T | undefined {
    const ordinal = this.#space.ordinals.get(id);
    return ordinal === undefined || ordinal >= this.#byOrdinal.length ? undefined : this.#byOrdinal[ordinal];
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  values(): MapIterator<T> {
    return this.#items.values();
  }

  *keys(): MapIterator<string> {
    for (const item of this.#items) yield item.id;
  }

  *entries(): MapIterator<[string, T]> {
    for (const item of this.#items) yield [item.id, item];
  }

  [Symbol.iterator](): MapIterator<[string, T]> {
    return this.entries();
  }

  forEach(callback: (value: T, key: string, map: ReadonlyMap<string, T>) => void, thisArg?: unknown): void {
    for (const item of this.#items) callback.call(thisArg, item, item.id, this);
  }
}

/**
 * Interns the id of each item of one contract and keeps its first definition; every later definition of an id is
 * recorded as a duplicate of `key`. Pure but for `space` and `duplicates`. @internal
 */
export function defineIds<T extends { readonly id: string }>(
  space: IdSpace,
  key: ContractKey,
  items: readonly T[],
  duplicates: DuplicateId[],
): DefinedIds<T> {
  const kept: T[] = [];
  const ordinals: number[] = [];
  // At most items.length ids are new.
  const defined = new Uint8Array(space.ids.length + items.length);
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as T;
    const ordinal = intern(space, item.id);
    if (defined[ordinal] === 1) {
      duplicates.push({ key, id: item.id });
      continue;
    }
    defined[ordinal] = 1;
    kept.push(item);
    ordinals.push(ordinal);
  }
  return new DefinedIds(space, kept, Int32Array.from(ordinals));
}
