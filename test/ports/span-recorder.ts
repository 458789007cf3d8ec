import type { Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

// Spans through the OpenTelemetry SDK's in-memory exporter, for the tests of what the tracer port's users record.

/** A tracer of the SDK's (a tracer port as it is) and the spans it has finished so far. */
export function recorder(): { tracer: Tracer; spans: () => ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test-host'), spans: () => exporter.getFinishedSpans() };
}

/** The spans of one name, in the order they finished. */
export const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
/** The span id of a span's parent (undefined for a root span). */
export const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
/** The span id of a span. */
export const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;
