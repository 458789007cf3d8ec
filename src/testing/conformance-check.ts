import assert, { AssertionError } from 'node:assert/strict';

// A value as a failure message shows it: JSON where it serializes, bytes as a list, cut to a readable length.
function show(value: unknown): string {
  const text =
    value instanceof Uint8Array ? `bytes [${Array.from(value).join(', ')}]` : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

// One realm for both sides: under Jest an adapter's arrays come from Node's realm, the expected ones from the test's.
function sameRealm(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

/** Asserts `actual` deep-equals `expected`, whatever realm each was made in. @internal */
export function expectEqual(actual: unknown, expected: unknown, rule: string): void {
  try {
    assert.deepEqual(sameRealm(actual), sameRealm(expected));
  } catch {
    throw new AssertionError({ message: `${rule}: expected ${show(expected)}, got ${show(actual)}`, actual, expected });
  }
}

/** Asserts a condition. @internal */
export function expectTrue(condition: boolean, rule: string, seen?: unknown): asserts condition {
  if (!condition) throw new AssertionError({ message: seen === undefined ? rule : `${rule}: got ${show(seen)}` });
}

// Whether an error carries the port's error code: any thrown object with it counts, a GoalLoopError or not.
const hasCode = (error: unknown, code: string): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;

// What a thrown value says about itself in a failure message.
const describeThrown = (error: unknown): string =>
  error instanceof Error
    ? `${(error as { code?: unknown }).code ?? error.name}: ${error.message}`
    : `a thrown ${show(error)}`;

/** Awaits an operation the rule says must fail with `code` (an `IO_ERROR`, an `INVALID_OPTIONS`) and returns its message. @internal */
export async function expectRejection(operation: Promise<unknown>, code: string, rule: string): Promise<string> {
  const outcome = await operation.then(
    () => ({ resolved: true as const }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) throw new AssertionError({ message: `${rule}: it resolved instead of throwing ${code}` });
  if (!hasCode(outcome.error, code))
    throw new AssertionError({
      message: `${rule}: expected an error with code ${code}, got ${describeThrown(outcome.error)}`,
    });
  return String((outcome.error as { message?: unknown }).message ?? '');
}

/** Runs one case under its name: an assertion failure says which case it broke. @internal */
export async function underRule(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AssertionError) {
      error.message = `FileSystem conformance, "${name}": ${error.message}`;
      throw error;
    }
    const message = `FileSystem conformance, "${name}": the filesystem threw where the contract expects success (${describeThrown(error)})`;
    throw Object.assign(new AssertionError({ message }), { cause: error });
  }
}
