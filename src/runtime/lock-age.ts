/** How long ago a lock record's writer last beat, by the reader's clock. @internal */
export interface HeartbeatAge {
  /** Milliseconds since the last beat; negative when a trusted heartbeat lies a little ahead. */
  readonly ageMs: number;
  /** How far the recorded heartbeat lies ahead of the reader's clock (0 when it does not). */
  readonly aheadMs: number;
  /** True when the heartbeat lay too far ahead to trust, so the files' mtime dated it. */
  readonly byFileTime: boolean;
}

/** Trusted when at most `aheadLimitMs` ahead: a clock further ahead would keep its lock while it stays ahead. @internal */
export function trustsHeartbeat(recordedAt: number, now: number, aheadLimitMs: number): boolean {
  return recordedAt - now <= aheadLimitMs;
}

/** Ages by the recorded time when trusted, else by the files' mtime, so a dead fast-clock holder still goes stale. @internal */
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

/** `heartbeat 12 s ago`, `... 2 s ahead of this clock`, or an untrusted one's lead and file time; never negative. @internal */
export function heartbeatPhrase(age: HeartbeatAge, what = 'heartbeat'): string {
  if (!age.byFileTime) return `${what} ${since(age.ageMs)}`;
  return `${what} ${since(-age.aheadMs)}, too far to trust, so judged by when its lock files last changed: ${since(age.ageMs)}`;
}
