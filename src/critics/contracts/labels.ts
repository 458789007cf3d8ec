import { z } from 'zod';
import { type Issue, issuesFromZod, type ParseResult } from '../../errors.js';

/** One human label: the id of a sampled critic decision and what the human judges the output deserved (`accept` or `reject`). @public */
export const calibrationLabelSchema = z.strictObject({
  id: z.string().min(1),
  human: z.enum(['accept', 'reject']),
  labeler: z.string().optional(),
  note: z.string().optional(),
});

/** One human label. @public */
export type CalibrationLabel = z.infer<typeof calibrationLabelSchema>;

/** The labels file humans return for a calibration sample (`schemas/critic-labels.schema.json`). @public */
export const calibrationLabelsSchema = z.strictObject({
  $schema: z.string().optional(),
  schema_version: z.literal(1),
  labels: z.array(calibrationLabelSchema),
});

/** The labels file. @public */
export type CalibrationLabels = z.infer<typeof calibrationLabelsSchema>;

/** Parses a labels file's JSON value, listing every issue with its path (a label id given twice is an issue too). @public */
export function parseCalibrationLabels(value: unknown): ParseResult<CalibrationLabels> {
  const parsed = calibrationLabelsSchema.safeParse(value);
  if (!parsed.success) return { success: false, issues: issuesFromZod(parsed.error) };
  const seen = new Set<string>();
  const issues: Issue[] = [];
  parsed.data.labels.forEach((label, index) => {
    if (seen.has(label.id))
      issues.push({ code: 'duplicate_id', path: ['labels', index, 'id'], message: `label ${label.id} is given twice` });
    seen.add(label.id);
  });
  return issues.length === 0 ? { success: true, data: parsed.data, issues } : { success: false, issues };
}
