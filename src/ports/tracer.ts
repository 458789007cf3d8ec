/** A span attribute's value. @public */
export type SpanAttributeValue = string | number | boolean;

/** A span's attributes, by name (the library's are namespaced: `goal_loop.*`, `critics.*`). @public */
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue>>;

/** The context a span starts in: the shape of OpenTelemetry's `Context`. @public */
export interface SpanParentContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): SpanParentContext;
  deleteValue(key: symbol): SpanParentContext;
}

/** A span, as the library uses it: the part of OpenTelemetry's `Span` it calls. @public */
export interface TraceSpan {
  setAttributes(attributes: SpanAttributes): unknown;
  /** `code` 2 is OpenTelemetry's `SpanStatusCode.ERROR`. */
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): unknown;
  end(): unknown;
}

/**
 * The tracer port: the shape of OpenTelemetry's `Tracer`, so `trace.getTracer('my-host')` from `@opentelemetry/api`
 * fits as it is, and the library's declarations need no OpenTelemetry type. @public
 */
export interface Tracer {
  startSpan(name: string, options?: { readonly attributes?: SpanAttributes }, context?: SpanParentContext): TraceSpan;
}

const noopSpan: TraceSpan = {
  setAttributes: () => undefined,
  setStatus: () => undefined,
  recordException: () => undefined,
  end: () => undefined,
};

/** A tracer that records nothing: the default when no tracer is given and OpenTelemetry is not installed. @internal */
export const noopTracer: Tracer = { startSpan: () => noopSpan };

// OpenTelemetry's API makes its context keys with Symbol.for(description), so that every copy and version of the API agrees on them.
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

// An immutable context: OpenTelemetry's BaseContext, which the library cannot import (the API is an optional peer).
class ParentContext implements SpanParentContext {
  constructor(private readonly values: ReadonlyMap<symbol, unknown>) {}

  getValue(key: symbol): unknown {
    return this.values.get(key);
  }

  setValue(key: symbol, value: unknown): SpanParentContext {
    return new ParentContext(new Map(this.values).set(key, value));
  }

  deleteValue(key: symbol): SpanParentContext {
    const values = new Map(this.values);
    values.delete(key);
    return new ParentContext(values);
  }
}

/** A context whose span is `parent`, for starting its children. @internal */
export function contextWithParent(parent: TraceSpan): SpanParentContext {
  return new ParentContext(new Map([[SPAN_KEY, parent]]));
}
