import { z } from 'zod';
import { portOption, refuseInvalidOptions, stageIdsOption } from '../errors.js';

const positiveInt = (name: string) =>
  z.int({ error: `${name} must be a positive integer` }).min(1, { error: `${name} must be a positive integer` });

/** The options {@link readRunInputs} takes, as checked. @internal */
export const readRunOptionShape = {
  goal: z
    .custom((value) => value === null || (typeof value === 'object' && !Array.isArray(value)), {
      message: 'goal must be a parsed goal (an object) or null',
    })
    .optional(),
  iteration: z.int().min(0).nullable().optional(),
  stages: stageIdsOption.optional(),
  concurrency: positiveInt('concurrency').optional(),
};

/** Every option of {@link runConsistencyReview}. @internal */
export const consistencyReviewOptionShape = {
  ...readRunOptionShape,
  fs: portOption(
    ['readText', 'writeText', 'stat', 'realpath'],
    'fs must be a FileSystem (readText, writeText, stat, realpath)',
  ),
  runDir: z.string().min(1, { error: 'runDir must name the run directory' }),
  now: z.iso
    .datetime({ offset: true, error: 'now must be an ISO 8601 date-time (2025-01-31T12:00:00.000Z)' })
    .optional(),
  clock: portOption(['now'], 'clock must have a now() method').optional(),
  // The task id names a folder under tasks/: one path segment.
  taskId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, {
      error: 'taskId must be one path segment of letters, digits, ".", "_", "-"',
    })
    .optional(),
  maxIssuesPerRule: positiveInt('maxIssuesPerRule').optional(),
};

/** Refuses options the consistency review cannot run with, before it reads or writes anything. @internal */
export function validateConsistencyReviewOptions(options: unknown): void {
  refuseInvalidOptions('runConsistencyReview', consistencyReviewOptionShape, options);
}

/** Refuses options {@link readRunInputs} cannot read with: `INVALID_OPTIONS` listing every issue with its path. @internal */
export function validateReadRunOptions(options: unknown): void {
  refuseInvalidOptions('readRunInputs', readRunOptionShape, options);
}
