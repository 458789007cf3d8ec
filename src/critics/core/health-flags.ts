import type { HealthFlag, OverallMetrics, StageMetrics } from './metrics-types.js';

/** The seed's target bands and alarm levels. @public */
export const CRITIC_HEALTH_BANDS = {
  retry: { low: 0.1, high: 0.3 },
  backtrack: { low: 0.05, high: 0.15 },
  systemicBacktrack: 0.25,
  lenientBacktrack: 0.01,
} as const;

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;

/** The seed's health flags, overall and per critic. Pure. @internal */
export function healthFlags(overall: OverallMetrics, stages: readonly StageMetrics[]): HealthFlag[] {
  const flags: HealthFlag[] = [];
  const bands = CRITIC_HEALTH_BANDS;
  const { backtrackRate, retryRate } = overall;
  if (backtrackRate !== null && backtrackRate > bands.systemicBacktrack)
    flags.push({
      code: 'systemic_upstream_failure',
      message: `backtracks at ${pct(backtrackRate)} (above 25%): systemic upstream quality failure, not localized errors`,
    });
  if (backtrackRate !== null && backtrackRate < bands.lenientBacktrack)
    flags.push({
      code: 'critics_too_lenient',
      message: `backtracks at ${pct(backtrackRate)} (below 1%): critics too lenient or irrelevant`,
    });
  for (const stage of stages) {
    if (stage.decisions > 0 && stage.retryRate === 0 && stage.backtrackRate === 0 && stage.escalationRate === 0)
      flags.push({
        code: 'critic_never_blocks',
        stage: stage.stage,
        message: `the ${stage.stage} critic never blocks: it is overhead, not a critic`,
      });
  }
  if (retryRate !== null && (retryRate < bands.retry.low || retryRate > bands.retry.high))
    flags.push({
      code: 'retry_rate_out_of_band',
      message: `within-stage retries at ${pct(retryRate)} (target 10–30%): a calibration problem`,
    });
  if (backtrackRate !== null && (backtrackRate < bands.backtrack.low || backtrackRate > bands.backtrack.high))
    flags.push({
      code: 'backtrack_rate_out_of_band',
      message: `backward routes at ${pct(backtrackRate)} (target 5–15%): a calibration problem`,
    });
  return flags;
}
