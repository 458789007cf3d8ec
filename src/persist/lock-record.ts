/**
 * What the run lock file holds: its owner, the fencing `token` of the
 * acquisition (fresh each time the lock is taken), the process id, the last
 * heartbeat, and the timeout its holder beats within.
 *
 * @internal
 */
export interface LockRecord {
  readonly owner: string;
  readonly token: string;
  readonly pid: number | null;
  readonly heartbeat_at: number;
  readonly heartbeat_iso: string;
  readonly timeout_ms: number;
}

/**
 * Parses a lock file's text, or `null` when it is not a lock record (torn,
 * foreign, or with a heartbeat or timeout that is not a finite number). A
 * record written before tokens existed reads with an empty token.
 *
 * @internal
 */
export function parseLockRecord(text: string): LockRecord | null {
  let value: Partial<Record<keyof LockRecord, unknown>>;
  try {
    value = JSON.parse(text) as typeof value;
  } catch {
    return null;
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.owner !== 'string' ||
    !Number.isFinite(value.heartbeat_at) ||
    !Number.isFinite(value.timeout_ms)
  )
    return null;
  return {
    owner: value.owner,
    token: typeof value.token === 'string' ? value.token : '',
    pid: typeof value.pid === 'number' ? value.pid : null,
    heartbeat_at: value.heartbeat_at as number,
    heartbeat_iso: String(value.heartbeat_iso ?? ''),
    timeout_ms: value.timeout_ms as number,
  };
}

/**
 * True when two reads of the lock saw the same holder at the same heartbeat.
 *
 * @internal
 */
export function sameLockRecord(a: LockRecord, b: LockRecord): boolean {
  return a.owner === b.owner && a.token === b.token && a.heartbeat_at === b.heartbeat_at;
}
