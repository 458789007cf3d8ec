// What the goal loop shares with the review beyond its public entry: the feedback.json pieces it owns, its metric
// reading, its precedence table and its events reader. Not a package subpath: goal-loop/contracts re-exports the
// schemas and the precedence table for hosts.

export type { Criterion, MaintenanceCategory } from './goal/contracts/goal.js';
export { maintenanceCategorySchema } from './goal/contracts/goal.js';
export type { AgentCriterionEntry } from './goal/contracts/goal-evaluation.js';
export { agentCriterionEntrySchema, goalStatusSchema } from './goal/contracts/goal-evaluation.js';
export { compareMetric, readMetricValue } from './goal/core/metric.js';
export type { DecisionSignal } from './goal/core/precedence.js';
export { decideStatus } from './goal/core/precedence.js';
export { readLatestIterationStarted } from './goal/loop-events.js';
