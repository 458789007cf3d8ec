import type { LoopEvent, LoopEventDraft } from '../contracts/events.js';
import type { LoopState } from '../contracts/loop-state.js';

/** A state change of the loop's record and the events that tell it. @internal */
export interface Transition {
  readonly state: LoopState;
  readonly events: readonly LoopEvent[];
}

/** The fields of an event of type `T` besides the common ones. @internal */
export type Fields<T extends LoopEventDraft['type']> = Omit<
  Extract<LoopEventDraft, { type: T }>,
  'ts' | 'type' | 'iteration' | 'max_iterations' | 'goal_id'
>;

/** Stamps events with the common fields and consecutive `seq` numbers, and puts them in the outbox. @internal */
export function emit(
  state: LoopState,
  ts: string,
  drafts: readonly { type: LoopEventDraft['type']; fields: object }[],
): Transition {
  let seq = state.next_seq;
  const events = drafts.map(({ type, fields }) => ({
    ts,
    type,
    iteration: state.iteration,
    max_iterations: state.session?.max_iterations ?? 0,
    goal_id: state.goal_id,
    seq: seq++,
    ...fields,
  })) as LoopEvent[];
  return { state: { ...state, next_seq: seq, outbox: events, updated_at: ts }, events };
}

/** Builds one event draft of the given type. @internal */
export function draft<T extends LoopEventDraft['type']>(type: T, fields: Fields<T>): { type: T; fields: object } {
  return { type, fields };
}

/** A record whose outbox holds exactly these events. @internal */
export function withOutbox(state: LoopState, events: Transition['events']): Transition {
  return {
    state:
      events.length === state.outbox.length && events.every((event, i) => event === state.outbox[i])
        ? state
        : { ...state, outbox: [...events] },
    events,
  };
}

/** Runs `then` on a transition's state, keeping the events of both (and of `before`) in order. @internal */
export function chain<T extends Transition>(
  before: Transition['events'],
  first: Transition,
  then: (state: LoopState) => T,
): T {
  const next = then(first.state);
  return { ...next, ...withOutbox(next.state, [...before, ...first.events, ...next.events]) };
}
