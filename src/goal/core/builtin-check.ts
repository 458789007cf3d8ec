import type { CriterionStatus } from './criteria.js';
import type { DecisionSignal } from './precedence.js';

/** One built-in check over stage statuses and the feedback report. @public */
export interface BuiltinCheck {
  /**
   * `stage:<stage id>`, `feedback:criticals`, `feedback:readable` (malformed, or its critical count unreadable) or
   * `metrics:readable` (a metrics.json the loop refuses to run on).
   */
  readonly id: string;
  readonly status: CriterionStatus;
  readonly detail: string;
  readonly rerunStages: readonly string[];
}

/** A built-in check with the signals it raises for the precedence table. @internal */
export interface CheckedBuiltin {
  readonly check: BuiltinCheck;
  readonly signals: readonly DecisionSignal[];
}
