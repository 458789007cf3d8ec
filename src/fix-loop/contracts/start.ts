import { z } from 'zod';

/** The attempt bound of a session that names none. @public */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** The hard cap on attempts per session: a larger `maxAttempts` is clamped to it. @public */
export const MAX_ATTEMPTS_CAP = 50;

const text = z.string().min(1);

/** Where the test command writes a JUnit XML or Vitest/Jest JSON report (relative to the workspace). @public */
export const testReportFileSchema = z.strictObject({
  format: z.enum(['junit', 'jest-json']),
  path: text,
});

/** Where the test command writes its report. @public */
export type TestReportFile = z.infer<typeof testReportFileSchema>;

/**
 * What starts a fix session: goal, type, workspace, build and/or test command (at least one), test report, attempt
 * bound (clamped to {@link MAX_ATTEMPTS_CAP}). @public
 */
export const fixSessionStartSchema = z
  .strictObject({
    goal: text,
    goalType: text,
    workspace: text,
    buildCommand: text.optional(),
    testCommand: text.optional(),
    testReport: testReportFileSchema.optional(),
    maxAttempts: z.number().int().min(1).default(DEFAULT_MAX_ATTEMPTS),
  })
  // A session with nothing to run measures nothing: refused here, not escalated two steps later.
  .refine((start) => start.buildCommand !== undefined || start.testCommand !== undefined, {
    message: 'at least one of the build and test commands is required',
    path: ['testCommand'],
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });

/** A fix session's start, as parsed (`maxAttempts` set, not yet clamped). @public */
export type FixSessionStart = z.output<typeof fixSessionStartSchema>;

/** A fix session's start as a caller passes it (`maxAttempts` optional). @public */
export type FixSessionStartInput = z.input<typeof fixSessionStartSchema>;
