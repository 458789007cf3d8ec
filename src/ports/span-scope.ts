import { contextWithParent, type SpanAttributes, type Tracer, type TraceSpan } from './tracer.js';

// OpenTelemetry's SpanStatusCode.ERROR.
const STATUS_ERROR = 2;

/**
 * One span the library opened, with its tracer, so children start under it
 * explicitly. Every call is guarded: a tracer or span that throws loses its
 * span data, never the run's work. Ending twice ends once.
 *
 * @internal
 */
export class SpanScope {
  private ended = false;
  private failed = false;

  private constructor(
    private readonly tracer: Tracer,
    private readonly span: TraceSpan | null,
  ) {}

  /** Starts a root span (in the tracer's active context) or, with `parent`, a child of it. */
  static start(tracer: Tracer, name: string, attributes: SpanAttributes, parent?: SpanScope): SpanScope {
    const span = guard(() =>
      parent?.span
        ? tracer.startSpan(name, { attributes }, contextWithParent(parent.span))
        : tracer.startSpan(name, { attributes }),
    );
    return new SpanScope(tracer, span ?? null);
  }

  /** Starts a child span of this one. */
  child(name: string, attributes: SpanAttributes): SpanScope {
    return SpanScope.start(this.tracer, name, attributes, this);
  }

  /** Adds attributes (an undefined value is left out). */
  set(attributes: Readonly<Record<string, SpanAttributes[string] | undefined>>): void {
    const defined = Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined));
    guard(() => this.span?.setAttributes(defined as SpanAttributes));
  }

  /**
   * Marks the span as failed: status ERROR with `message`, and the error
   * recorded as an exception event (the thrown value, else the message). The
   * first failure of a span is the one it keeps.
   */
  fail(message: string, error?: unknown): void {
    if (this.failed) return;
    this.failed = true;
    guard(() => {
      this.span?.setStatus({ code: STATUS_ERROR, message });
      this.span?.recordException(error instanceof Error ? error : message);
    });
  }

  /** Ends the span (once), after adding `attributes`. */
  end(attributes: Readonly<Record<string, SpanAttributes[string] | undefined>> = {}): void {
    if (this.ended) return;
    this.ended = true;
    this.set(attributes);
    guard(() => this.span?.end());
  }

  /** Ends the span as failed by `error` (a run that rejects). */
  endWithError(error: unknown): void {
    if (this.ended) return;
    this.fail(messageOf(error), error);
    this.end();
  }
}

// Tracing is an observer: its faults are swallowed so the run goes on.
function guard<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}

// The message of whatever was thrown, whatever it was.
function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return `a thrown value of type ${typeof error}`;
  }
}
