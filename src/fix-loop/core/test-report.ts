/** One failed test of a report: its name (suites and title) and its message. @public */
export interface TestFailure {
  readonly name: string;
  readonly message: string;
}

/**
 * What a test report says, whichever runner wrote it: how many tests failed,
 * passed, were skipped (todo included), the total, and each failure. A
 * failure message is cut to {@link MAX_FAILURE_MESSAGE_CHARS}.
 *
 * @public
 */
export interface TestReport {
  readonly failed: number;
  readonly passed: number;
  readonly skipped: number;
  readonly total: number;
  readonly failures: readonly TestFailure[];
}

/** The longest failure message a test report keeps (its start, in characters). @public */
export const MAX_FAILURE_MESSAGE_CHARS = 2_000;

/**
 * A failure message as a report keeps it: trimmed, and cut to
 * {@link MAX_FAILURE_MESSAGE_CHARS} with an ellipsis. Pure.
 *
 * @internal
 */
export function boundMessage(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= MAX_FAILURE_MESSAGE_CHARS) return trimmed;
  let cut = trimmed.slice(0, MAX_FAILURE_MESSAGE_CHARS - 1);
  // Never end on the first half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}
