import { z } from 'zod';
import { refuseInvalidOptions } from '../../errors.js';
import { fnv1a64 } from '../../kit/hash.js';
import type { CriticIssue } from '../contracts/decision.js';
import type { CalibrationLabels } from '../contracts/labels.js';
import type { ExecutionTrace } from '../contracts/result.js';

/** One sampled critic decision, as a human labels it. @public */
export interface CalibrationItem {
  /** `<executionId>:<seq>`: what a label names. */
  readonly id: string;
  readonly executionId: string;
  readonly stage: string;
  readonly attempt: number;
  /** `accept`, or `reject` for a retry or a route back. */
  readonly decision: 'accept' | 'reject';
  readonly verdict: 'accept' | 'retry' | 'route_back';
  readonly issues: readonly CriticIssue[];
  /** The hash of the judged output (the host finds the output by execution, stage and attempt). */
  readonly outputHash: string | null;
  /** The month of the decision (`YYYY-MM`), for drift. */
  readonly period: string;
}

/** A deterministic calibration sample. @public */
export interface CalibrationSample {
  readonly seed: string;
  readonly perDecision: number;
  readonly items: readonly CalibrationItem[];
}

// Every option has an entry (checked against the functions' parameters), so a misspelt key is refused, never ignored.
const sampleOptionShape = {
  perDecision: z.int().min(0).optional(),
  seed: z.union([z.string(), z.number()], { error: 'seed must be a string or a finite number' }),
} satisfies Record<keyof Parameters<typeof sampleForCalibration>[1], z.ZodType>;
const reportOptionShape = {
  threshold: z.number().min(0).max(1).optional(),
} satisfies Record<keyof NonNullable<Parameters<typeof calibrationReport>[2]>, z.ZodType>;

/**
 * Draws up to `perDecision` accepts and as many rejects per critic (stage) from the traces: each candidate is ranked by
 * a hash of the seed and its id, so the same traces and seed give the same sample whatever their order. @public
 */
export function sampleForCalibration(
  traces: readonly ExecutionTrace[],
  options: { readonly perDecision?: number; readonly seed: string | number },
): CalibrationSample {
  refuseInvalidOptions('sampleForCalibration', sampleOptionShape, options);
  const perDecision = options.perDecision ?? 25;
  // A numeric seed samples as its decimal text does, so 29 and '29' draw the same items.
  const seed = String(options.seed);
  const pools = new Map<string, { item: CalibrationItem; rank: string }[]>();
  for (const execution of traces) {
    const hashes = new Map<string, string | null>();
    for (const record of execution.trace) {
      if (record.kind === 'generated') hashes.set(`${record.stage}#${record.attempt}`, record.outputHash);
      if (record.kind !== 'judged' || record.decision === 'escalate' || record.decision === 'invalid') continue;
      if (record.by === 'second_critic') continue; // the stage critic is calibrated, not its check
      const id = `${execution.executionId}:${record.seq}`;
      const item: CalibrationItem = {
        id,
        executionId: execution.executionId,
        stage: record.stage,
        attempt: record.attempt,
        decision: record.decision === 'accept' ? 'accept' : 'reject',
        verdict: record.decision,
        issues: record.issues,
        outputHash: hashes.get(`${record.stage}#${record.attempt}`) ?? null,
        period: record.ts.slice(0, 7),
      };
      const key = `${record.stage}\u0000${item.decision}`;
      const pool = pools.get(key) ?? [];
      pools.set(key, pool);
      pool.push({ item, rank: fnv1a64(`${seed}\n${id}`) });
    }
  }
  const keys = [...pools.keys()].sort();
  const items = keys.flatMap((key) =>
    (pools.get(key) ?? [])
      .sort((a, b) => (a.rank === b.rank ? a.item.id.localeCompare(b.item.id) : a.rank < b.rank ? -1 : 1))
      .slice(0, perDecision)
      .map((entry) => entry.item),
  );
  return { seed, perDecision, items };
}

/** Agreement of one critic with the humans (overall or in one period). @public */
export interface AgreementFigure {
  readonly labelled: number;
  readonly agreed: number;
  /** `agreed / labelled`, or `null` with no label. */
  readonly accuracy: number | null;
}

/** One critic's calibration: agreement with the humans, by period, and whether to recalibrate. @public */
export interface CriticCalibration extends AgreementFigure {
  readonly stage: string;
  readonly recalibrate: boolean;
  readonly byPeriod: readonly (AgreementFigure & { readonly period: string })[];
}

/** What {@link calibrationReport} gives. @public */
export interface CalibrationReport {
  readonly threshold: number;
  readonly critics: readonly CriticCalibration[];
  /** Sample items no label names. */
  readonly unlabelled: readonly string[];
  /** Labels that name no sample item. */
  readonly unknownLabels: readonly string[];
}

// Agreement counts as a figure.
const figure = (labelled: number, agreed: number): AgreementFigure => ({
  labelled,
  agreed,
  accuracy: labelled === 0 ? null : agreed / labelled,
});

/**
 * Each critic's accuracy against the human labels (a decision agrees when the human's accept/reject matches it), by
 * period, with `recalibrate: true` when it is below `threshold` (default 0.85, from 0 to 1; an unknown option key or a
 * wrong value is `INVALID_OPTIONS` naming its path). @public
 */
export function calibrationReport(
  sample: CalibrationSample,
  labels: CalibrationLabels,
  options: { readonly threshold?: number } = {},
): CalibrationReport {
  refuseInvalidOptions('calibrationReport', reportOptionShape, options);
  const threshold = options.threshold ?? 0.85;
  const human = new Map(labels.labels.map((label) => [label.id, label.human]));
  const byStage = new Map<string, Map<string, [number, number]>>();
  const unlabelled: string[] = [];
  for (const item of sample.items) {
    const verdict = human.get(item.id);
    if (verdict === undefined) {
      unlabelled.push(item.id);
      continue;
    }
    const periods = byStage.get(item.stage) ?? new Map<string, [number, number]>();
    byStage.set(item.stage, periods);
    const counts = periods.get(item.period) ?? [0, 0];
    periods.set(item.period, [counts[0] + 1, counts[1] + (verdict === item.decision ? 1 : 0)]);
  }
  const critics = [...byStage].map(([stage, periods]) => {
    const byPeriod = [...periods]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([period, [n, ok]]) => ({ period, ...figure(n, ok) }));
    const total = figure(
      byPeriod.reduce((sum, p) => sum + p.labelled, 0),
      byPeriod.reduce((sum, p) => sum + p.agreed, 0),
    );
    return { stage, ...total, recalibrate: total.accuracy !== null && total.accuracy < threshold, byPeriod };
  });
  const ids = new Set(sample.items.map((item) => item.id));
  const unknownLabels = labels.labels.map((label) => label.id).filter((id) => !ids.has(id));
  return { threshold, critics, unlabelled, unknownLabels };
}
