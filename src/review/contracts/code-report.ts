import { z } from 'zod';
import { isArrayOf, isNameList, isNonEmptyString, isObject, isOptionalString } from '../../kit/zod-fast-path.js';
import { hasContractMetadata, isIdList } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  hasKey,
  idListSchema,
  isHarvestShape,
  metadataOf,
  NO_ITEMS,
  normalizedItems,
  readWith,
} from './metadata.js';
import { endpointKeyFromString } from './system-design.js';

/** The fast predicate of {@link codeFileSchema} (see FastCheck). @internal */
export function isCanonicalCodeFile(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { path, implements: ids, service, endpoints, tables, mitigates, source } = value;
  return (
    isNonEmptyString(path) &&
    isIdList(ids) &&
    isOptionalString(service) &&
    (endpoints === undefined || isNameList(endpoints)) &&
    (tables === undefined || isNameList(tables)) &&
    (mitigates === undefined || isIdList(mitigates)) &&
    isOptionalString(source)
  );
}

/**
 * One code file of the canonical `code_report.json`: the story and requirement ids it implements, its service, the
 * endpoints (`"GET /x"`) and tables it provides, and the threat ids it mitigates. @public
 */
export const codeFileSchema = z.looseObject({
  path: z.string().min(1),
  implements: idListSchema.describe(
    'Story ids (US-nnn) of jira_tickets.json and/or requirement ids (FR-nnn, NFR-nnn) of requirement_spec.json the file implements; either links it to the requirement (a story through its linked_requirements).',
  ),
  service: z.string().describe('The name of the system_design.json service the file belongs to.').optional(),
  endpoints: z
    .array(z.string().min(1))
    .describe('The endpoints the file provides, as "METHOD /path", matching system_design.json api_endpoints.')
    .optional(),
  tables: z
    .array(z.string().min(1))
    .describe('The table names the file provides, matching system_design.json database.tables.')
    .optional(),
  mitigates: idListSchema.describe('Threat ids (THR-nnn) of threat_model.json the file mitigates.').optional(),
  source: z.string().optional(),
});

/** The canonical `code_report.json` (stage 07-code). @public */
export const codeReportSchema = z.looseObject({
  ...contractMetadataFields,
  files: z.array(codeFileSchema),
});

/** The fast predicate of {@link codeReportSchema} (see FastCheck). @internal */
export function isCanonicalCodeReport(value: unknown): boolean {
  return isObject(value) && hasContractMetadata(value) && isArrayOf(value.files, isCanonicalCodeFile);
}

// The shape rstack-agents' 07-code agent writes: files_created[] paths, no links.
const rstackCodeReportSchema = z.looseObject({
  ...contractMetadataFields,
  files_created: z.array(z.string().min(1)),
});

// The baseline rstack-agents' `adopt` harvests for 07-code (harvest.js): the codebase exists, its top-level dirs, no files or links.
const harvestedCodeReportSchema = z.looseObject({
  ...contractMetadataFields,
  existing_codebase: z.boolean().optional(),
  top_level_dirs: z.array(z.string()).optional(),
  test_command: z.string().nullable().optional(),
});

/** A code file, normalized. @public */
export interface NormalizedCodeFile {
  readonly path: string;
  readonly implements: readonly string[];
  readonly service?: string;
  readonly endpoints?: readonly string[];
  readonly tables?: readonly string[];
  readonly mitigates?: readonly string[];
  /** `"brownfield-adoption"` on a file an adoption harvested. */
  readonly source?: string;
}

/** `code_report.json`, normalized. @public */
export interface CodeReportContract {
  readonly meta: ContractMetadata;
  readonly files: readonly NormalizedCodeFile[];
}

/** Reads code_report.json in its canonical shape or in rstack-agents' shape (an adoption's harvest names no files). @internal */
export function readCodeReport(input: unknown): ContractRead<CodeReportContract> {
  if (
    !hasKey(input, 'files') &&
    !hasKey(input, 'files_created') &&
    isHarvestShape(input, ['existing_codebase', 'top_level_dirs', 'test_command'])
  ) {
    return readWith(harvestedCodeReportSchema, input, (parsed) => ({ meta: metadataOf(parsed), files: NO_ITEMS }));
  }
  if (!hasKey(input, 'files') && hasKey(input, 'files_created')) {
    return readWith(rstackCodeReportSchema, input, (parsed) => {
      const meta = metadataOf(parsed);
      const files = parsed.files_created.map((path): NormalizedCodeFile => ({ path, implements: NO_ITEMS }));
      return { meta, files };
    });
  }
  return readWith(codeReportSchema, input, canonicalCodeReport, isCanonicalCodeReport);
}

// A name without its surrounding whitespace.
function trimmed(name: string): string {
  return name.trim();
}

// One canonical code file, normalized: the file itself when nothing changes.
function normalizedFile(file: z.output<typeof codeFileSchema>): NormalizedCodeFile {
  const service = file.service?.trim();
  const endpoints = file.endpoints === undefined ? undefined : normalizedItems(file.endpoints, endpointKeyFromString);
  const tables = file.tables === undefined ? undefined : normalizedItems(file.tables, trimmed);
  if (service === file.service && endpoints === file.endpoints && tables === file.tables) return file;
  return { ...file, service, endpoints, tables };
}

// The canonical shape, as read in place or as zod parsed it: its own list of files when every file is already normal.
function canonicalCodeReport(parsed: z.output<typeof codeReportSchema>): CodeReportContract {
  return { meta: metadataOf(parsed), files: normalizedItems(parsed.files, normalizedFile) };
}
