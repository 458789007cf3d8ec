import type { LoopEvent } from '../contracts/events.js';

/**
 * Text on one line: runs of whitespace holding a line break (a multi-line
 * detail, a command's output tail) become one space. Pure.
 *
 * @internal
 */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** USD for people: `$0.05`, `$1.2345` (at most four decimals). Pure. @internal */
export function formatUsd(value: number): string {
  return `$${Number(value.toFixed(4))}`;
}

/** A duration for people: `850 ms`, `12.3 s`. Pure. @internal */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

// A list of stage ids, or a word when there is none.
const stageList = (stages: readonly string[]): string => (stages.length === 0 ? 'no stage' : stages.join(', '));
// A reason or detail after a dash, when there is one.
const why = (text: string | undefined): string =>
  text === undefined || text.trim() === '' ? '' : ` — ${oneLine(text)}`;

/**
 * One readable line for a loop event (no trailing newline), for CLIs and
 * logs: the run-wide iteration first, then what happened. Every event type of
 * {@link loopEventSchema} has its own wording; a value outside the union
 * (from untyped callers) is an error, not a guess. Pure.
 *
 * @example
 * ```ts
 * new GoalLoop({ ...options, onEvent: (event) => console.log(formatEvent(event)) });
 * // iteration 1: stage 07-code passed in 850 ms, $0.02
 * ```
 * @public
 */
export function formatEvent(event: LoopEvent): string {
  return `iteration ${event.iteration}: ${describe(event)}`;
}

// What the event says, without the iteration prefix.
function describe(event: LoopEvent): string {
  switch (event.type) {
    case 'loop_iteration_started': {
      const of =
        event.session_iteration === undefined
          ? `at most ${event.max_iterations} per session`
          : `${event.session_iteration} of at most ${event.max_iterations} this session`;
      return `started (${of}), running ${stageList(event.stages)}`;
    }
    case 'stage_started':
      return `stage ${event.stage} started`;
    case 'stage_completed':
      return `stage ${event.stage} ${event.status} in ${formatDuration(event.duration_ms)}, ${formatUsd(event.cost_usd)}${why(event.detail)}`;
    case 'goal_evaluated': {
      const rerun =
        event.recommended_rerun_stages.length === 0 ? '' : `, rerun ${event.recommended_rerun_stages.join(', ')}`;
      return `goal ${event.goal_id} evaluated ${event.status}, score ${event.score}${rerun}${why(event.reason)}`;
    }
    case 'loop_iteration_retrying_stages':
      return `retrying ${stageList(event.stages)}${why(event.reason)}`;
    case 'loop_completed':
      return `goal ${event.goal_id} met, score ${event.score}${why(event.reason)}`;
    case 'loop_blocked':
      return `stopped on ${event.stopped_on}${why(event.reason)}`;
    case 'loop_resumed':
      return `resumed an unfinished session (phase ${event.phase}), pending ${stageList(event.pending_stages)}`;
    case 'goal_changed':
      return `goal.json changed since the session started (${event.previous_hash.slice(0, 12)} → ${event.current_hash.slice(0, 12)}), ${event.accepted ? 'accepted' : 'not accepted: the loop asks the user'}`;
    case 'lock_taken_over':
      return `took over the run lock of ${event.previous_owner} (heartbeat ${formatDuration(event.heartbeat_age_ms)} old)`;
    default: {
      const unknown: never = event;
      throw new Error(`unknown loop event type ${String((unknown as { type?: unknown }).type)}`);
    }
  }
}
