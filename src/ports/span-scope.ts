import { errorTypeOf, type GenAiRole, genAiAttributes } from './gen-ai.js';
import type { Tracing } from './open-telemetry.js';
import { contextWithParent, type SpanAttributes, type TraceSpan } from './tracer.js';

// OpenTelemetry's SpanStatusCode.ERROR.
const STATUS_ERROR = 2;

/** One span the library opened, with its run's tracing, so children start under it explicitly. @internal */
export class SpanScope {
  private ended = false;
  private failed = false;

  private constructor(
    private readonly tracing: Tracing,
    private readonly span: TraceSpan | null,
  ) {}

  /** Starts a root span (in the tracer's active context) in the role `role`. */
  static start(tracing: Tracing, name: string, attributes: SpanAttributes, role?: GenAiRole): SpanScope {
    return SpanScope.open(tracing, name, attributes, role, null);
  }

  /** Starts a child span of this one, in the role `role`. */
  child(name: string, attributes: SpanAttributes, role?: GenAiRole): SpanScope {
    return SpanScope.open(this.tracing, name, attributes, role, this.span);
  }

  /** Runs host code with this span active, so the spans the host starts inside (its model calls') nest under it. */
  within<T>(work: () => T): T {
    return this.span === null ? work() : this.tracing.activate(this.span, work);
  }

  private static open(
    tracing: Tracing,
    name: string,
    own: SpanAttributes,
    role: GenAiRole | undefined,
    parent: TraceSpan | null,
  ): SpanScope {
    const attributes = tracing.genAi && role !== undefined ? { ...own, ...genAiAttributes(role) } : own;
    const span = guard(() =>
      parent
        ? tracing.tracer.startSpan(name, { attributes }, contextWithParent(parent))
        : tracing.tracer.startSpan(name, { attributes }),
    );
    return new SpanScope(tracing, span ?? null);
  }

  /** Adds attributes (an undefined value is left out). */
  set(attributes: Readonly<Record<string, SpanAttributes[string] | undefined>>): void {
    const defined = Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined));
    guard(() => this.span?.setAttributes(defined as SpanAttributes));
  }

  /** Marks the span as failed: status ERROR with `message`, and the error recorded as an exception event (the thrown value, else the message). */
  fail(message: string, error?: unknown): void {
    if (this.failed) return;
    this.failed = true;
    if (this.tracing.genAi) this.set({ 'error.type': errorTypeOf(error) });
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
