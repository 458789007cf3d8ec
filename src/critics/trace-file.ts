import type { FileSystem } from '../ports/file-system.js';
import { readCommittedRecords } from '../runtime/committed-records.js';
import { type TraceRecord, traceRecordSchema } from './contracts/trace.js';

/** Where one execution lives: `<dir>/<executionId>/` with its state, trace and lock. @internal */
export interface ExecutionPaths {
  readonly dir: string;
  readonly state: string;
  readonly trace: string;
  readonly lock: string;
}

/** The files of one execution. Pure. @internal */
export function executionPaths(dir: string, executionId: string): ExecutionPaths {
  const base = `${dir.replace(/\/+$/, '')}/${executionId}`;
  return { dir: base, state: `${base}/state.json`, trace: `${base}/trace.jsonl`, lock: `${base}/execution.lock` };
}

/**
 * The committed records of an execution's trace, in order. A torn last line
 * (a crash mid-append, never a committed record) and lines that are not
 * trace records are skipped.
 *
 * @internal
 */
export function readTrace(fs: FileSystem, path: string): Promise<TraceRecord[]> {
  return readCommittedRecords(fs, path, traceRecordSchema);
}
