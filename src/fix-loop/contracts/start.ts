import { z } from 'zod';

/** The attempt bound of a session that names none. @public */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** The hard cap on attempts per session: a larger `maxAttempts` is clamped to it. @public */
export const MAX_ATTEMPTS_CAP = 50;

const text = z.string().min(1);

/**
 * Where the test command writes a machine-readable report, read after each
 * test run to count failed, passed and total tests: a JUnit XML file or a
 * Vitest/Jest JSON report (`--reporter=json --outputFile=…`,
 * `--json --outputFile=…`), its `path` relative to the workspace and inside it.
 * Without one, the counts come from the exit code and the test output.
 *
 * @public
 */
export const testReportFileSchema = z.strictObject({
  format: z.enum(['junit', 'jest-json']),
  path: text,
});

/** Where the test command writes its report. @public */
export type TestReportFile = z.infer<typeof testReportFileSchema>;

/**
 * What starts a fix session (`start()`'s input, camelCase like the rest of
 * the API; the `start_feedback_loop` tool takes the same fields in
 * snake_case, and the session's record stores them so): the goal and its
 * type, the workspace (relative to the FileSystem root), the build and test
 * commands (each optional, but at least one is required: a start with
 * neither is refused with an issue at `$.testCommand`), where the test
 * command writes its report, and the attempt bound (default
 * {@link DEFAULT_MAX_ATTEMPTS}; above {@link MAX_ATTEMPTS_CAP} it is clamped
 * by `parseFixSessionStart`, which says so). Unknown fields are refused.
 *
 * @public
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
    // Reported beside the other fields' issues, whenever the input is an object.
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });

/** A fix session's start, as parsed (`maxAttempts` set, not yet clamped). @public */
export type FixSessionStart = z.output<typeof fixSessionStartSchema>;

/** A fix session's start as a caller passes it (`maxAttempts` optional). @public */
export type FixSessionStartInput = z.input<typeof fixSessionStartSchema>;
