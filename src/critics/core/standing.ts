import { z } from 'zod';
import { refuseInvalidOptions, refuseOptions } from '../../errors.js';
import type { CalibrationReport } from './calibration.js';
import type { CriticMetrics } from './metrics-types.js';
import type { Standing } from './standing-gate.js';

/** One critic's standing, with the figures and reasons behind it. @public */
export interface CriticStanding {
  readonly stage: string;
  readonly standing: Standing;
  /** One sentence per signal: its outcome accuracy and its calibration against humans. */
  readonly reasons: readonly string[];
  readonly outcomeAccuracy: number | null;
  readonly outcomeDecisions: number;
  readonly calibrationAccuracy: number | null;
}

/** What {@link criticStanding} gives: each critic's standing, and the same by stage for `StagedPipeline`. @public */
export interface StandingReport {
  readonly threshold: number;
  readonly critics: readonly CriticStanding[];
  /** Give it to `new StagedPipeline({ standing })`. */
  readonly byStage: Readonly<Record<string, Standing>>;
}

/** Options of {@link criticStanding}. @public */
export interface CriticStandingOptions {
  /** Each critic's agreement with the humans, from `calibrationReport`. */
  readonly calibration?: CalibrationReport;
  /** The accuracy a critic must keep, outcomes and calibration alike, from 0 to 1 (default 0.85). */
  readonly threshold?: number;
  /** Outcome accuracy below this is failing (default 0.5; at most `threshold`). */
  readonly revokeBelow?: number;
  /** Judged decisions a critic needs before its outcome accuracy counts (default 10). */
  readonly minOutcomes?: number;
}

const share = z.number().min(0).max(1).optional();
// Every option has an entry (checked against the interface), so a misspelt key is refused, never ignored.
const optionShape = {
  calibration: z
    .custom<CalibrationReport>((value) => Array.isArray((value as CalibrationReport | null)?.critics), {
      message: 'calibration must be a calibrationReport (with its critics)',
    })
    .optional(),
  threshold: share,
  revokeBelow: share,
  minOutcomes: z.int().min(0).optional(),
} satisfies Record<keyof CriticStandingOptions, z.ZodType>;

type OutcomeLevel = 'meets' | 'below' | 'failing' | 'unmeasured';
type CalibrationLevel = 'meets' | 'below' | 'unmeasured';

// The one table: a critic's standing from what its outcomes and the humans say.
const STANDING: Record<OutcomeLevel, Record<CalibrationLevel, Standing>> = {
  meets: { meets: 'full', below: 'probation', unmeasured: 'full' },
  below: { meets: 'probation', below: 'revoked', unmeasured: 'probation' },
  failing: { meets: 'probation', below: 'revoked', unmeasured: 'revoked' },
  unmeasured: { meets: 'full', below: 'probation', unmeasured: 'full' },
};

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;

/** Each critic's standing. @public */
export function criticStanding(metrics: CriticMetrics, options: CriticStandingOptions = {}): StandingReport {
  refuseInvalidOptions('criticStanding', optionShape, options);
  const threshold = options.threshold ?? 0.85;
  const revokeBelow = options.revokeBelow ?? Math.min(0.5, threshold);
  if (revokeBelow > threshold)
    refuseOptions('criticStanding', [
      { code: 'too_big', path: ['revokeBelow'], message: `must be at most the threshold (${threshold})` },
    ]);
  const minOutcomes = options.minOutcomes ?? 10;
  const calibrated = new Map(options.calibration?.critics.map((critic) => [critic.stage, critic.accuracy]));
  const stages = [
    ...metrics.stages.filter((stage) => stage.decisions > 0).map((stage) => stage.stage),
    ...[...calibrated.keys()].filter((stage) => !metrics.stages.some((m) => m.stage === stage && m.decisions > 0)),
  ];
  const critics = stages.map((stage): CriticStanding => {
    const figures = metrics.stages.find((m) => m.stage === stage);
    const outcomeAccuracy = figures?.predictiveAccuracy ?? null;
    const outcomeDecisions = figures?.outcomeDecisions ?? 0;
    const calibrationAccuracy = calibrated.get(stage) ?? null;
    const measured = outcomeAccuracy !== null && outcomeDecisions >= minOutcomes;
    const outcome: OutcomeLevel = !measured
      ? 'unmeasured'
      : outcomeAccuracy >= threshold
        ? 'meets'
        : outcomeAccuracy < revokeBelow
          ? 'failing'
          : 'below';
    const calibration: CalibrationLevel =
      calibrationAccuracy === null ? 'unmeasured' : calibrationAccuracy >= threshold ? 'meets' : 'below';
    const reasons = [
      measured
        ? `outcome accuracy ${pct(outcomeAccuracy)} over ${outcomeDecisions} decisions ${outcome === 'meets' ? 'meets' : 'is below'} ${pct(threshold)}${outcome === 'failing' ? ` (failing below ${pct(revokeBelow)})` : ''}`
        : `outcomes judge ${outcomeDecisions} of its decisions (${minOutcomes} needed): not measured yet`,
      calibrationAccuracy === null
        ? 'no calibration against humans'
        : `calibration against humans ${pct(calibrationAccuracy)} ${calibration === 'meets' ? 'meets' : 'is below'} ${pct(threshold)}`,
    ];
    const standing = STANDING[outcome][calibration];
    return { stage, standing, reasons, outcomeAccuracy, outcomeDecisions, calibrationAccuracy };
  });
  return {
    threshold,
    critics,
    byStage: Object.fromEntries(critics.map((critic) => [critic.stage, critic.standing])),
  };
}
