/** A signal that follows others, and how to stop it following them. @internal */
export interface JoinedSignal {
  readonly signal: AbortSignal;
  /** Stops following the sources: a long-lived source keeps nothing of this signal afterwards. */
  readonly release: () => void;
}

const NOTHING_TO_RELEASE = (): void => {};

/** A signal that aborts, with the first source's reason, when any of `sources` does. @internal */
export function joinSignals(sources: readonly (AbortSignal | undefined)[]): JoinedSignal {
  const controller = new AbortController();
  const given = sources.filter((source): source is AbortSignal => source !== undefined);
  const aborted = given.find((source) => source.aborted);
  if (aborted !== undefined) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, release: NOTHING_TO_RELEASE };
  }
  const release = (): void => {
    for (const source of given) source.removeEventListener('abort', follow);
  };
  function follow(this: AbortSignal): void {
    release();
    controller.abort(this.reason);
  }
  for (const source of given) source.addEventListener('abort', follow);
  return { signal: controller.signal, release };
}
