/**
 * A plain object with the given own properties, in order, like `Object.fromEntries`, built in dictionary mode: V8 gives
 * an object filled one key at a time a new hidden class per key, which costs time quadratic in the keys and makes every
 * lookup slow once there are hundreds of them. @internal
 */
export function recordFromEntries<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) record[key] = value;
  return Object.setPrototypeOf(record, Object.prototype) as Record<string, T>;
}

/**
 * The own value of `key` in `record`, or `undefined`: never one it inherits, so a key such as `toString` or
 * `constructor` (a stage id, say) reads as absent until it is set. @internal
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Appends `items` to `target` one by one and returns `target`. @internal */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
