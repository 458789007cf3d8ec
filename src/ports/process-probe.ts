/**
 * What a run lock can learn of the processes that share a filesystem's host: the identity of the place where a pid
 * names one process, and whether a process there is certainly gone. @public
 */
export interface ProcessProbe {
  /** The identity of the place where pids mean the same thing: two processes whose probes have the same `host` see the same process under one pid. */
  readonly host: string;
  /** True only when no process `pid` exists at `host`. */
  isGone(pid: number): boolean;
}
