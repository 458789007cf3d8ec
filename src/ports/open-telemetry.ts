import { noopTracer, type Tracer } from './tracer.js';

/** Loads `@opentelemetry/api` (or fails when it is not installed). @internal */
export type OpenTelemetryLoader = () => Promise<unknown>;

// The optional peer is imported only when a run needs the global tracer, and only once; the CommonJS build turns this
// into a require() inside the promise, so a missing package is a rejected promise there too, never a failed load.
const importApi: OpenTelemetryLoader = () => import('@opentelemetry/api');

let loader: OpenTelemetryLoader = importApi;
let loaded: Promise<GetTracer | null> | null = null;

type GetTracer = (name: string) => Tracer;

/**
 * The tracer a run uses: the host's, else OpenTelemetry's global tracer
 * (`trace.getTracer('goal-loop')`) when `@opentelemetry/api` is installed,
 * else a tracer that records nothing. Without a registered tracer provider
 * the global tracer records nothing either, at the API's own small cost.
 *
 * @internal
 */
export async function resolveTracer(given: Tracer | undefined, name = 'goal-loop'): Promise<Tracer> {
  if (given !== undefined) return given;
  loaded ??= loader().then(getTracerOf, () => null);
  const getTracer = await loaded;
  if (getTracer === null) return noopTracer;
  try {
    return getTracer(name);
  } catch {
    return noopTracer;
  }
}

/**
 * Replaces how the API is loaded (tests simulate a missing peer with a loader
 * that rejects); `undefined` restores the real import. The next run loads afresh.
 *
 * @internal
 */
export function setOpenTelemetryLoader(load: OpenTelemetryLoader | undefined): void {
  loader = load ?? importApi;
  loaded = null;
}

// The API's `trace.getTracer`, whether the module came as ES named exports or as a CommonJS namespace under `default`.
function getTracerOf(module: unknown): GetTracer | null {
  const api = module as { trace?: unknown; default?: { trace?: unknown } } | null;
  const trace = (api?.trace ?? api?.default?.trace) as { getTracer?: unknown } | undefined;
  const getTracer = trace?.getTracer;
  if (typeof getTracer !== 'function') return null;
  return (name) => getTracer.call(trace, name) as Tracer;
}
