/**
 * What a run lock can learn of the processes that share a filesystem's host:
 * the identity of the place where a pid names one process, and whether a
 * process there is certainly gone. A lock records its holder's `host` and
 * pid; a newcomer whose probe has the same `host` asks `isGone` and takes
 * over at once a lock whose holder is gone, instead of waiting for its
 * heartbeat to go stale.
 *
 * `createNodeFileSystem` (`goal-loop/node`) provides one as
 * `FileSystem.processes`; an adapter without one leaves only the
 * heartbeat timeout to judge a lock.
 *
 * @example
 * ```ts
 * import type { ProcessProbe } from 'goal-loop';
 * // A probe for tests: on this place only pid 4164 is gone.
 * const probe: ProcessProbe = { host: 'build-7', isGone: (pid) => pid === 4164 };
 * ```
 * @public
 */
export interface ProcessProbe {
  /**
   * The identity of the place where pids mean the same thing: two processes
   * whose probes have the same `host` see the same process under one pid. Not
   * only a host name: two containers with one host name but their own pid
   * namespaces must have different identities. The empty string tells no
   * identity (then no holder is ever judged gone).
   */
  readonly host: string;
  /**
   * True only when no process `pid` exists at `host`; false when it exists,
   * and in any doubt. The probe must describe the place of the process that
   * uses it: the lock records that process's own pid beside `host`.
   */
  isGone(pid: number): boolean;
}
