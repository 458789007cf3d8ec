import { oneLine } from '../../kit/markdown.js';
import type { LoopEvent } from '../contracts/events.js';
import { field, fieldList, formatDuration, formatUsd, objectArgument, unknownValue } from './line-text.js';

// A reason or detail after a dash, when there is one.
const why = (text: unknown): string => {
  const line = typeof text === 'string' ? oneLine(text) : '';
  return line === '' ? '' : ` — ${line}`;
};

/** One readable line for a loop event (no trailing newline), for CLIs and logs: the run-wide iteration first, then what happened. @public */
export function formatEvent(event: LoopEvent): string {
  objectArgument(event, 'formatEvent(event)');
  return `iteration ${field(event.iteration)}: ${describe(event)}`;
}

// What the event says, without the iteration prefix.
function describe(event: LoopEvent): string {
  switch (event.type) {
    case 'loop_iteration_started': {
      const max = field(event.max_iterations);
      const of =
        event.session_iteration === undefined
          ? `at most ${max} per session`
          : `${field(event.session_iteration)} of at most ${max} this session`;
      return `started (${of}), running ${fieldList(event.stages, 'no stage')}`;
    }
    case 'stage_started':
      return `stage ${field(event.stage)} started`;
    case 'stage_completed':
      return `stage ${field(event.stage)} ${field(event.status)} in ${formatDuration(event.duration_ms)}, ${formatUsd(event.cost_usd)}${why(event.detail)}`;
    case 'goal_evaluated': {
      const stages = event.recommended_rerun_stages;
      const rerun = Array.isArray(stages) && stages.length === 0 ? '' : `, rerun ${fieldList(stages, '')}`;
      return `goal ${field(event.goal_id)} evaluated ${field(event.status)}, score ${field(event.score)}${rerun}${why(event.reason)}`;
    }
    case 'loop_iteration_retrying_stages':
      return `retrying ${fieldList(event.stages, 'no stage')}${why(event.reason)}`;
    case 'loop_completed':
      return `goal ${field(event.goal_id)} met, score ${field(event.score)}${why(event.reason)}`;
    case 'loop_blocked':
      return `stopped on ${field(event.stopped_on)}${why(event.reason)}`;
    case 'loop_resumed':
      // Between iterations (a step() after a step()) nothing was cut short: the session goes on.
      return event.phase === 'idle' && Array.isArray(event.pending_stages) && event.pending_stages.length === 0
        ? 'continued the open session between iterations'
        : `resumed an unfinished session (phase ${field(event.phase)}), pending ${fieldList(event.pending_stages, 'no stage')}`;
    case 'goal_changed':
      return `goal.json changed since the session started (${field(event.previous_hash).slice(0, 12)} → ${field(event.current_hash).slice(0, 12)}), ${event.accepted ? 'accepted' : 'not accepted: the loop asks the user'}`;
    case 'lock_taken_over':
      return event.reason === 'no_record'
        ? 'took over a run lock file that held no lock record (a loop killed while creating it, or a foreign file)'
        : `took over the run lock of ${field(event.previous_owner)} (${event.reason === 'holder_gone' ? 'its process is gone from this host, ' : ''}heartbeat ${formatDuration(event.heartbeat_age_ms)} old)`;
    case 'late_cost_recorded':
      return `stage ${field(event.stage)} of iteration ${field(event.stage_iteration)} reported ${formatUsd(event.cost_usd)} after the loop stopped waiting; added to the spend`;
    case 'late_cost_unreadable':
      return `late cost file ${field(event.path)} is unreadable, not counted and kept${why(event.reason)}`;
    default: {
      const unknown: never = event;
      throw unknownValue('formatEvent(event)', 'event', 'type', (unknown as { type?: unknown }).type);
    }
  }
}
