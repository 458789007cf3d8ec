import { z } from 'zod';
import { endpointKeyFromString } from './system-design.js';
import { type ContractMetadata, type ContractRead, contractMetadataFields, hasKey, idListSchema, isBaselineItem, metadataOf, readWith } from './metadata.js';

/**
 * One code file of the canonical `code_report.json`: the story and
 * requirement ids it implements, its service, the endpoints (`"GET /x"`) and
 * tables it provides, and the threat ids it mitigates.
 *
 * @public
 */
export const codeFileSchema = z.looseObject({
  path: z.string().min(1),
  implements: idListSchema,
  service: z.string().optional(),
  endpoints: z.array(z.string().min(1)).optional(),
  tables: z.array(z.string().min(1)).optional(),
  mitigates: idListSchema.optional(),
  source: z.string().optional(),
});

/**
 * The canonical `code_report.json` (stage 07-code).
 *
 * @public
 */
export const codeReportSchema = z.looseObject({
  ...contractMetadataFields,
  files: z.array(codeFileSchema),
});

// The shape rstack-agents' 07-code agent writes: files_created[] paths, no links.
const rstackCodeReportSchema = z.looseObject({
  ...contractMetadataFields,
  files_created: z.array(z.string().min(1)),
});

/** A code file, normalized. @public */
export interface NormalizedCodeFile {
  readonly path: string;
  readonly implements: readonly string[];
  readonly service: string | null;
  readonly endpoints: readonly string[];
  readonly tables: readonly string[];
  readonly mitigates: readonly string[];
  readonly baseline: boolean;
}

/** `code_report.json`, normalized. @public */
export interface CodeReportContract {
  readonly meta: ContractMetadata;
  readonly files: readonly NormalizedCodeFile[];
}

/** Reads code_report.json in its canonical shape or in rstack-agents' shape. @internal */
export function readCodeReport(input: unknown): ContractRead<CodeReportContract> {
  if (!hasKey(input, 'files') && hasKey(input, 'files_created')) {
    return readWith(rstackCodeReportSchema, input, (parsed) => {
      const meta = metadataOf(parsed);
      const files = parsed.files_created.map((path) => ({ path, implements: [], service: null, endpoints: [], tables: [], mitigates: [], baseline: meta.harvested }));
      return { meta, files };
    });
  }
  return readWith(codeReportSchema, input, (parsed) => {
    const meta = metadataOf(parsed);
    const files = parsed.files.map((file) => ({
      path: file.path,
      implements: file.implements,
      service: file.service?.trim() ?? null,
      endpoints: (file.endpoints ?? []).map(endpointKeyFromString),
      tables: (file.tables ?? []).map((table) => table.trim()),
      mitigates: file.mitigates ?? [],
      baseline: isBaselineItem(file.source, meta.harvested),
    }));
    return { meta, files };
  });
}
