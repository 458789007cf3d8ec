import type { OutcomeRecord } from '../contracts/outcome.js';
import type { ExecutionTrace } from '../contracts/result.js';
import type { JudgedRecord, TraceRecord } from '../contracts/trace.js';

/** What the outcomes say of one stage's critic across executions. @internal */
export interface OutcomeTally {
  /** Accepts of the output that went on, and those no defect born at or before the stage followed. */
  accepts: number;
  acceptsRight: number;
  /** Rejects, and those the outcome bore out. */
  rejects: number;
  rejectsRight: number;
  /** Executions in which the critic's rejects led to an accepted output that stayed clean: defects it caught. */
  caught: number;
  /** Executions in which the critic rejected at least once: defects found at the stage (the shift-left profile). */
  rejectedIn: number;
  /** The critic's cost in the executions with an outcome. */
  criticCost: number;
}

/** A tally with every count at zero. Pure. @internal */
export const emptyOutcomeTally = (): OutcomeTally => ({
  accepts: 0,
  acceptsRight: 0,
  rejects: 0,
  rejectsRight: 0,
  caught: 0,
  rejectedIn: 0,
  criticCost: 0,
});

// True when the outcome's defect was born at or before stage `index` (a defect of unknown origin: before every one).
function bornBy(outcome: OutcomeRecord, order: ReadonlyMap<string, number>, index: number): boolean {
  if (!outcome.defect) return false;
  if (outcome.origin === undefined) return true;
  return (order.get(outcome.origin) ?? Number.POSITIVE_INFINITY) <= index;
}

/** Adds what `outcome` says of one execution's critics to the tallies (stage order from `order`). @internal */
export function tallyOutcome(
  tallies: Map<string, OutcomeTally>,
  execution: ExecutionTrace,
  outcome: OutcomeRecord,
  order: ReadonlyMap<string, number>,
): void {
  const lastAccept = new Map<string, number>();
  const lastClean = new Map<string, number>();
  execution.trace.forEach((record, at) => {
    if (record.kind !== 'judged') return;
    if (record.by === undefined && record.decision === 'accept') lastAccept.set(record.stage, at);
    if (record.action.kind === 'accept') lastClean.set(record.stage, at);
  });
  const rejected = new Set<string>();
  const caught = new Set<string>();
  execution.trace.forEach((record, at) => {
    if (!isOwnDecision(record)) return;
    const tally = tallies.get(record.stage) ?? emptyOutcomeTally();
    tallies.set(record.stage, tally);
    tally.criticCost += record.costUsd;
    const born = bornBy(outcome, order, order.get(record.stage) ?? 0);
    if (record.decision === 'accept' && lastAccept.get(record.stage) === at) {
      tally.accepts += 1;
      if (!born) tally.acceptsRight += 1;
    } else if (record.decision === 'retry' || record.decision === 'route_back') {
      const acceptedLater = (lastClean.get(record.stage) ?? -1) > at;
      tally.rejects += 1;
      if (acceptedLater !== born) tally.rejectsRight += 1;
      rejected.add(record.stage);
      if (acceptedLater && !born) caught.add(record.stage);
    }
  });
  for (const stage of rejected) (tallies.get(stage) as OutcomeTally).rejectedIn += 1;
  for (const stage of caught) (tallies.get(stage) as OutcomeTally).caught += 1;
}

// A decision of a stage's own critic (not its second critic's).
const isOwnDecision = (record: TraceRecord): record is JudgedRecord =>
  record.kind === 'judged' && record.by === undefined;
