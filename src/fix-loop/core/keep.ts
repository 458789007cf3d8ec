import type { FixAttempt } from '../contracts/attempt.js';

/**
 * Which applied attempts a session keeps: `improving` reverts an applied fix whose gap after is not lower than
 * before, so candidates stay alternatives against the last improving state; `all` keeps every applied fix, one on
 * top of the other.
 *
 * @public
 */
export type KeepPolicy = 'improving' | 'all';

/** Whether an attempt's change is undone: applied, kept only while improving, and the gap not lower after. Pure. @internal */
export function shouldRevert(keep: KeepPolicy, applied: boolean, gapBefore: number, gapAfter: number): boolean {
  return keep === 'improving' && applied && gapAfter >= gapBefore;
}

/**
 * The indexes of the attempts whose change the workspace holds, or may hold: those applied and kept, and those cut
 * off (interrupted), which may have been applied before they were. Reverted and refused attempts left nothing. Pure.
 *
 * @internal
 */
export function heldAttempts(attempts: readonly Pick<FixAttempt, 'index' | 'outcome'>[]): number[] {
  return attempts
    .filter((attempt) => attempt.outcome === 'applied' || attempt.outcome === 'interrupted')
    .map((attempt) => attempt.index);
}
