// goal-loop/fix-loop: the fix-loop orchestrator — a build/test fix session stepped to convergence or escalation.

/**
 * The version of the fix-loop session files this entry reads and writes.
 * @public
 */
export const FIX_LOOP_STATE_VERSION = 1;
