import { z } from 'zod';
import { contractMetadataFields, idSchema } from './metadata.js';

/** `transcript.json` (stage 01-transcript). @public */
export const transcriptSchema = z.looseObject({ ...contractMetadataFields });

/** `summary.json` (stage 10-summary). @public */
export const summarySchema = z.looseObject({ ...contractMetadataFields });

/** The optional `compliance_report.json` (stage 13-compliance-checker): the frameworks checked and, where given, a status per requirement. @public */
export const complianceReportSchema = z.looseObject({
  ...contractMetadataFields,
  frameworks: z.array(z.string()).optional(),
  requirements: z.array(z.looseObject({ id: idSchema, status: z.string().optional() })).optional(),
});

/** The optional `cost_estimate.json` (stage 14-cost-estimation). @public */
export const costEstimateSchema = z.looseObject({ ...contractMetadataFields });
