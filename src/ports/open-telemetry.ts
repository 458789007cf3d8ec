import { noopTracer, type Tracer, type TraceSpan } from './tracer.js';

/** Loads `@opentelemetry/api` (or fails when it is not installed). @internal */
export type OpenTelemetryLoader = () => Promise<unknown>;

// Runs `work` with `span` as OpenTelemetry's active span.
type Activate = <T>(span: TraceSpan, work: () => T) => T;

/**
 * How a run traces: its tracer, whether its spans carry OpenTelemetry's GenAI attributes, and how host code runs with
 * one of its spans active, so the spans a host starts inside (a model call's) nest under it. @internal
 */
export interface Tracing {
  readonly tracer: Tracer;
  readonly genAi: boolean;
  readonly activate: Activate;
}

// The optional peer is imported only when a run needs it, and only once.
const importApi: OpenTelemetryLoader = () => import('@opentelemetry/api');

let loader: OpenTelemetryLoader = importApi;
let loaded: Promise<OpenTelemetryApi | null> | null = null;

// What the library uses of the API.
interface OpenTelemetryApi {
  readonly getTracer: (name: string) => Tracer;
  readonly activate: Activate;
}

const runAsIs: Activate = (_span, work) => work();

/** The tracing of a run. @internal */
export async function resolveTracing(
  options: { readonly tracer?: Tracer | undefined; readonly genAiAttributes?: boolean | undefined },
  name = 'goal-loop',
): Promise<Tracing> {
  loaded ??= loader().then(apiOf, () => null);
  const api = await loaded;
  const genAi = options.genAiAttributes ?? false;
  const activate = api?.activate ?? runAsIs;
  if (options.tracer !== undefined) return { tracer: options.tracer, genAi, activate };
  if (api === null) return { tracer: noopTracer, genAi, activate };
  try {
    return { tracer: api.getTracer(name), genAi, activate };
  } catch {
    return { tracer: noopTracer, genAi, activate };
  }
}

/** Replaces how the API is loaded (tests simulate a missing peer with a loader that rejects). @internal */
export function setOpenTelemetryLoader(load: OpenTelemetryLoader | undefined): void {
  loader = load ?? importApi;
  loaded = null;
}

interface ApiShape {
  readonly trace?: { getTracer?: unknown; setSpan?: unknown };
  readonly context?: { active?: unknown; with?: unknown };
}

// The API's `trace` and `context`, whether the module came as ES named exports or as a CommonJS namespace under `default`.
function apiOf(module: unknown): OpenTelemetryApi | null {
  const found = module as (ApiShape & { default?: ApiShape }) | null;
  const api = found?.trace !== undefined ? found : found?.default;
  const { trace, context } = api ?? {};
  if (typeof trace?.getTracer !== 'function') return null;
  const getTracer = (name: string) => (trace.getTracer as (name: string) => Tracer).call(trace, name);
  if (
    typeof trace.setSpan !== 'function' ||
    typeof context?.active !== 'function' ||
    typeof context.with !== 'function'
  )
    return { getTracer, activate: runAsIs };
  const setSpan = (trace.setSpan as (context: unknown, span: TraceSpan) => unknown).bind(trace);
  const active = (context.active as () => unknown).bind(context);
  const within = (context.with as <T>(context: unknown, work: () => T) => T).bind(context);
  const activate: Activate = (span, work) => {
    // Only an OpenTelemetry span can be a parent to OpenTelemetry's tracers (they read its spanContext()).
    if (typeof (span as { spanContext?: unknown }).spanContext !== 'function') return work();
    let spanContext: unknown;
    try {
      spanContext = setSpan(active(), span);
    } catch {
      return work();
    }
    return within(spanContext, work);
  };
  return { getTracer, activate };
}
