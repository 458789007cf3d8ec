import type { ExecutionTrace } from '../contracts/result.js';
import type { CallRecord, TraceRecord } from '../contracts/trace.js';

/** Running counts of one stage across executions. @internal */
export interface StageTally {
  executions: number;
  generatorCalls: number;
  decisions: number;
  retries: number;
  backtracks: number;
  withinBudget: number;
  escalated: number;
  judgedRight: number;
  judgedTotal: number;
  criticCost: number;
  generatorCost: number;
  reworkCost: number;
}

/** A tally with every count at zero. Pure. @internal */
export const emptyTally = (): StageTally => ({
  executions: 0,
  generatorCalls: 0,
  decisions: 0,
  retries: 0,
  backtracks: 0,
  withinBudget: 0,
  escalated: 0,
  judgedRight: 0,
  judgedTotal: 0,
  criticCost: 0,
  generatorCost: 0,
  reworkCost: 0,
});

// What a later part of the trace says about a stage, gathered walking backwards.
interface Later {
  nextHash: string | null;
  accepted: boolean;
  routedBackTo: boolean;
  blamedByEscalation: boolean;
}

const nothingLater = (): Later => ({ nextHash: null, accepted: false, routedBackTo: false, blamedByEscalation: false });

/** Adds one execution's trace to the tallies, in one backward and one forward pass. @internal */
export function tallyExecution(tallies: Map<string, StageTally>, execution: ExecutionTrace): void {
  const records = execution.trace.filter(isCallRecord);
  const later = new Map<string, Later>();
  const verdicts: boolean[] = new Array(records.length).fill(false);
  const hashOf = new Map<string, string | null>();
  for (const record of records)
    if (record.kind === 'generated') hashOf.set(`${record.stage}#${record.attempt}`, record.outputHash);
  const overruled = new Set<string>();
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index] as CallRecord;
    const seen = later.get(record.stage) ?? nothingLater();
    later.set(record.stage, seen);
    if (record.kind === 'judged') {
      const call = `${record.stage}#${record.attempt}`;
      if (record.by === 'second_critic') {
        if (record.decision !== 'accept' && record.decision !== 'invalid') overruled.add(call);
      } else if (record.decision === 'accept')
        verdicts[index] = !seen.routedBackTo && !seen.blamedByEscalation && !overruled.has(call);
      else if (record.decision === 'retry' || record.decision === 'route_back') {
        const judgedHash = hashOf.get(`${record.stage}#${record.attempt}`) ?? null;
        verdicts[index] = seen.accepted && seen.nextHash !== null && seen.nextHash !== judgedHash;
      }
      const { action } = record;
      if (action.kind === 'route_back') {
        const target = later.get(action.to) ?? nothingLater();
        later.set(action.to, { ...target, routedBackTo: true });
      } else if (action.kind === 'escalate' && record.decision === 'route_back' && record.routeTo !== undefined) {
        const target = later.get(record.routeTo) ?? nothingLater();
        later.set(record.routeTo, { ...target, blamedByEscalation: true });
      }
    } else seen.nextHash = record.outputHash;
    if (record.action?.kind === 'accept' || record.action?.kind === 'accept_with_gaps') seen.accepted = true;
  }
  const lastAction = new Map<string, string>();
  const calls = new Map<string, number>();
  records.forEach((record, index) => {
    const tally = tallies.get(record.stage) ?? emptyTally();
    tallies.set(record.stage, tally);
    if (record.action !== null) lastAction.set(record.stage, record.action.kind);
    if (record.kind === 'generated') {
      const made = (calls.get(record.stage) ?? 0) + 1;
      calls.set(record.stage, made);
      tally.generatorCalls += 1;
      tally.generatorCost += record.costUsd;
      if (made > 1) tally.reworkCost += record.costUsd;
      return;
    }
    tally.decisions += 1;
    tally.criticCost += record.costUsd;
    // A retry is counted by the critic's judgement (a retry, or a route back the veto made one) even when the
    // spent budget turned it into gaps or an escalation: the critic did block.
    if (record.decision === 'retry' || record.vetoed === true) tally.retries += 1;
    else if (record.action.kind === 'route_back') tally.backtracks += 1;
    // Accuracy is the stage critic's own: a second critic's decision is its check, not its judgement.
    if (record.by === undefined && ['accept', 'retry', 'route_back'].includes(record.decision)) {
      tally.judgedTotal += 1;
      if (verdicts[index] === true) tally.judgedRight += 1;
    }
  });
  for (const [stage, action] of lastAction) {
    const tally = tallies.get(stage) as StageTally;
    tally.executions += 1;
    if (action === 'accept') tally.withinBudget += 1;
    if (action === 'escalate') tally.escalated += 1;
  }
  for (const stage of calls.keys()) if (!lastAction.has(stage)) (tallies.get(stage) as StageTally).executions += 1;
  addLateCosts(tallies, execution.trace);
}

// True for the record of a generator or critic call.
function isCallRecord(record: TraceRecord): record is CallRecord {
  return record.kind === 'generated' || record.kind === 'judged';
}

// A late cost counts toward the cost of its stage's generator or critic: it came from a call the pipeline stopped
// waiting for, which is made again (or ended the execution), so it is counted as a call nowhere else.
function addLateCosts(tallies: Map<string, StageTally>, trace: readonly TraceRecord[]): void {
  for (const record of trace) {
    if (record.kind !== 'late_cost') continue;
    const tally = tallies.get(record.stage) ?? emptyTally();
    tallies.set(record.stage, tally);
    if (record.call === 'generate') tally.generatorCost += record.costUsd;
    else tally.criticCost += record.costUsd;
  }
}

/** Counts the route backs of one execution by `from→to` edge. Pure (it only updates `routes`). @internal */
export function tallyRoutes(routes: Map<string, number>, execution: ExecutionTrace): void {
  for (const record of execution.trace) {
    if (record.kind === 'judged' && record.action.kind === 'route_back') {
      const edge = `${record.stage}\u0000${record.action.to}`;
      routes.set(edge, (routes.get(edge) ?? 0) + 1);
    }
  }
}
