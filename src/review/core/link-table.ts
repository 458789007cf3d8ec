// The review's heaviest links as columns over interned ids.

/** Id lists up to this length are scanned for a repeated id. @internal */
export const SCAN_LIMIT = 16;

/** Ids interned as dense ordinals: `ids[k]` is the id of ordinal k. @internal */
export interface IdSpace {
  readonly ordinals: Map<string, number>;
  readonly ids: string[];
}

/** One link field as a column. @internal */
export interface LinkColumn {
  readonly start: Int32Array;
  readonly owners: Int32Array;
  readonly keys: Int32Array;
  readonly values: readonly string[];
}

/** Creates an id space holding `ids` (each once, the first occurrence's ordinal). @internal */
export function idSpace(ids: Iterable<string>): IdSpace {
  const space: IdSpace = { ordinals: new Map(), ids: [] };
  for (const id of ids) intern(space, id);
  return space;
}

/** The ordinal `of` gives each of `items`, in order, as a typed array. @internal */
export function ordinalsOf<T>(items: readonly T[], of: (item: T) => number): Int32Array {
  const ordinals = new Int32Array(items.length);
  for (let index = 0; index < items.length; index++) ordinals[index] = of(items[index] as T);
  return ordinals;
}

/** The ordinal of `id`, interned if new. @internal */
export function intern(space: IdSpace, id: string): number {
  let ordinal = space.ordinals.get(id);
  if (ordinal === undefined) {
    ordinal = space.ids.length;
    space.ordinals.set(id, ordinal);
    space.ids.push(id);
  }
  return ordinal;
}

/** Builds the column of one link field: owner i (whose value is `values[i]`) names the ids `lists[i]`. @internal */
export function linkColumn(
  space: IdSpace,
  lists: readonly (readonly string[])[],
  values: readonly string[],
): LinkColumn {
  let total = 0;
  for (let owner = 0; owner < lists.length; owner++) total += (lists[owner] as readonly string[]).length;
  // A field nobody fills names no ordinal: no counts the size of the space (a million requirements, no stories).
  if (total === 0) return { start: new Int32Array(1), owners: new Int32Array(0), keys: new Int32Array(0), values };
  // At most `total` ids are new, so every ordinal this column interns fits.
  const counts = new Int32Array(space.ids.length + total + 1);
  // Each link's ordinal (-1 for an owner's repeat) and owner, in link order.
  const targets = new Int32Array(total);
  const linkOwners = new Int32Array(total);
  const keys: number[] = [];
  let link = 0;
  for (let owner = 0; owner < lists.length; owner++) {
    const ids = lists[owner] as readonly string[];
    // A short list is scanned for a repeat; a long one keeps a set (no list costs the square of its length).
    const named = ids.length > SCAN_LIMIT ? new Set<string>() : null;
    for (let at = 0; at < ids.length; at++, link++) {
      const id = ids[at] as string;
      linkOwners[link] = owner;
      if (named === null ? at > 0 && namedBefore(ids, id, at) : named.size === named.add(id).size) {
        targets[link] = -1;
        continue;
      }
      const ordinal = intern(space, id);
      if ((counts[ordinal + 1] as number) === 0) keys.push(ordinal);
      (counts[ordinal + 1] as number)++;
      targets[link] = ordinal;
    }
  }
  const size = space.ids.length;
  // A copy of the counts' used part, so the column does not keep the whole counting buffer alive.
  const start = counts.slice(0, size + 1);
  for (let ordinal = 0; ordinal < size; ordinal++) (start[ordinal + 1] as number) += start[ordinal] as number;
  const next = start.slice(0, size);
  const owners = new Int32Array(start[size] as number);
  for (link = 0; link < total; link++) {
    const ordinal = targets[link] as number;
    if (ordinal >= 0) owners[(next[ordinal] as number)++] = linkOwners[link] as number;
  }
  return { start, owners, keys: Int32Array.from(keys), values };
}

// True when `ids` names `id` before position `at` (an owner's list is short: a scan beats a lookup).
function namedBefore(ids: readonly string[], id: string, at: number): boolean {
  for (let index = 0; index < at; index++) if (ids[index] === id) return true;
  return false;
}

/** How many owners name `ordinal` (0 for an ordinal the column never saw, or -1 for an id never interned). @internal */
export function ownerCount(column: LinkColumn, ordinal: number): number {
  return ownersEnd(column, ordinal) - ownersStart(column, ordinal);
}

/** Where the owners naming `ordinal` start in `column.owners` (with {@link ownersEnd}: an empty span for none). @internal */
export function ownersStart(column: LinkColumn, ordinal: number): number {
  return ordinal < 0 || ordinal + 1 >= column.start.length ? 0 : (column.start[ordinal] as number);
}

/** Where the owners naming `ordinal` end in `column.owners` (exclusive). @internal */
export function ownersEnd(column: LinkColumn, ordinal: number): number {
  return ordinal < 0 || ordinal + 1 >= column.start.length ? 0 : (column.start[ordinal + 1] as number);
}

/** The values naming `ordinal`, in owner order, a repeat of the previous value dropped. @internal */
export function columnValues(column: LinkColumn, ordinal: number): string[] {
  const list: string[] = [];
  const end = ownersEnd(column, ordinal);
  for (let at = ownersStart(column, ordinal); at < end; at++) {
    const value = column.values[column.owners[at] as number] as string;
    if (list[list.length - 1] !== value) list.push(value);
  }
  return list;
}

/** The column as an id → values index (keys in first-seen order), as the model's public maps show it. @internal */
export function columnIndex(space: IdSpace, column: LinkColumn): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (let at = 0; at < column.keys.length; at++) {
    const ordinal = column.keys[at] as number;
    index.set(space.ids[ordinal] as string, columnValues(column, ordinal));
  }
  return index;
}
