import type { SpanScope } from '../ports/span-scope.js';

type EndAttributes = Parameters<SpanScope['end']>[0];

/**
 * The one span pattern of every capability: runs `work`, then ends `span` with the attributes of what it gave, or,
 * when it throws, lets `failed` end the spans under it and ends `span` as failed by the error. @internal
 */
export async function endWith<T>(
  span: SpanScope,
  work: () => Promise<T>,
  ended: (result: T) => EndAttributes,
  failed?: (error: unknown) => void,
): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    failed?.(error);
    span.endWithError(error);
    throw error;
  }
  span.end(ended(result));
  return result;
}
