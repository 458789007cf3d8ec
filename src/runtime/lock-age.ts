/**
 * How long ago the writer of a lock record last beat, as a reader with its
 * own clock can tell it.
 *
 * @internal
 */
export interface HeartbeatAge {
  /**
   * Milliseconds since the last beat by the reader's clock; negative when a
   * trusted heartbeat lies a little ahead of it (clocks a little apart).
   */
  readonly ageMs: number;
  /** How far the recorded heartbeat lies ahead of the reader's clock (0 when it does not). */
  readonly aheadMs: number;
  /**
   * True when the recorded heartbeat lay too far ahead to be trusted, so the
   * time its files last changed (as the filesystem reports it) dated it.
   */
  readonly byFileTime: boolean;
}

/**
 * True when a heartbeat recorded at `recordedAt` can be trusted by a reader
 * whose clock reads `now`: it lies at most `aheadLimitMs` (the timeout the
 * lock is judged by) ahead. A holder a little ahead (clocks a little apart)
 * is trusted; one further ahead (a clock hours fast, a hostile file) would
 * keep its lock for as long as its clock is ahead, were it believed. Pure.
 *
 * @internal
 */
export function trustsHeartbeat(recordedAt: number, now: number, aheadLimitMs: number): boolean {
  return recordedAt - now <= aheadLimitMs;
}

/**
 * The age of a heartbeat recorded at `recordedAt` (its writer's clock), read
 * at `now` (the reader's): by the recorded time when
 * {@link trustsHeartbeat}, else by `changedAt`, when the record's files last
 * changed as the filesystem reports it (`null`: they are gone, age 0), so a
 * dead holder whose clock ran ahead is stale once its files are older than
 * the timeout by the reader's clock. Pure.
 *
 * @example
 * ```ts
 * judgeHeartbeat(now + 3_600_000, now - 5_000, now, 600_000); // { ageMs: 5_000, aheadMs: 3_600_000, byFileTime: true }
 * judgeHeartbeat(now + 2_000, now - 5_000, now, 600_000); // { ageMs: -2_000, aheadMs: 2_000, byFileTime: false }
 * ```
 * @internal
 */
export function judgeHeartbeat(
  recordedAt: number,
  changedAt: number | null,
  now: number,
  aheadLimitMs: number,
): HeartbeatAge {
  const aheadMs = Math.max(0, recordedAt - now);
  if (trustsHeartbeat(recordedAt, now, aheadLimitMs)) return { ageMs: now - recordedAt, aheadMs, byFileTime: false };
  return { ageMs: changedAt === null ? 0 : now - changedAt, aheadMs, byFileTime: true };
}

// A time `ms` before now in words: "12 s ago", or "3600 s ahead of this clock" for one after it.
const since = (ms: number): string =>
  ms >= 0 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(-ms / 1000)} s ahead of this clock`;

/**
 * A heartbeat's age for a message, after `what` (default `heartbeat`):
 * `heartbeat 12 s ago`, `heartbeat 2 s ahead of this clock`, or, for one not
 * trusted, how far ahead it is and when its files last changed. Never a
 * negative number of seconds. Pure.
 *
 * @internal
 */
export function heartbeatPhrase(age: HeartbeatAge, what = 'heartbeat'): string {
  if (!age.byFileTime) return `${what} ${since(age.ageMs)}`;
  return `${what} ${since(-age.aheadMs)}, too far to trust, so judged by when its lock files last changed: ${since(age.ageMs)}`;
}
