import { GoalLoopError } from '../errors.js';
import type { EvidenceFact } from '../kit/path-facts.js';
import type { Criterion } from './contracts/goal.js';
import type { CriterionFact } from './core/facts.js';

/** Gathers one criterion's fact; a file it cannot read (`IO_ERROR`) fails that criterion alone. @internal */
export async function gatherOrFail(criterion: Criterion, gather: () => Promise<CriterionFact>): Promise<CriterionFact> {
  try {
    return await gather();
  } catch (error) {
    const fact = isIoError(error) ? unreadableFact(criterion, error.message) : null;
    if (fact === null) throw error;
    return fact;
  }
}

/** Resolves one evidence path of an agent claim; an unreadable path is evidence that does not verify. @internal */
export async function evidenceOrFail(path: string, resolve: () => Promise<EvidenceFact>): Promise<EvidenceFact> {
  try {
    return await resolve();
  } catch (error) {
    if (!isIoError(error)) throw error;
    return { ok: false, detail: `${path} cannot be read: ${error.message}` };
  }
}

// True for a filesystem failure other than a missing file.
function isIoError(error: unknown): error is GoalLoopError {
  return error instanceof GoalLoopError && error.code === 'IO_ERROR';
}

// The failing fact of a criterion whose file cannot be read; null for kinds that read no file.
function unreadableFact(criterion: Criterion, message: string): CriterionFact | null {
  const detail = `it cannot be read (${message})`;
  switch (criterion.kind) {
    case 'file_exists':
      return { kind: 'file_exists', path: { state: 'refused', detail } };
    case 'metric_threshold':
      return { kind: 'metric_threshold', source: { state: 'refused', detail } };
    case 'json_schema':
      return {
        kind: 'json_schema',
        outcome: { state: 'unavailable', detail: `a file it names cannot be read (${message})` },
      };
    default:
      return null;
  }
}
