import { z } from 'zod';
import { isArrayOf, isNonEmptyString, isObject } from '../../kit/zod-fast-path.js';
import { hasContractMetadata, isIdList } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  hasKey,
  idListSchema,
  metadataOf,
  readWith,
} from './metadata.js';

/** The document types the review checks for. @public */
export const DOCUMENT_TYPES = ['BRD', 'FRD', 'SOW', 'HLD', 'TEST_PLAN'] as const;

/** A document type the review knows. @public */
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * One document of the canonical `documentation.json`: its type (`BRD`, `FRD`, `SOW`, `HLD`, `TEST_PLAN`, or another),
 * its path and the requirement ids it covers. @public
 */
export const documentSchema = z.looseObject({
  type: z.string().min(1).describe('BRD | FRD | SOW | HLD | TEST_PLAN (other types are kept but not checked)'),
  path: z.string().min(1),
  covers: idListSchema
    .describe('Requirement ids (FR-nnn, NFR-nnn) of requirement_spec.json the document covers.')
    .optional(),
});

// The fast predicate of documentSchema.
function isCanonicalDocument(value: unknown): boolean {
  return (
    isObject(value) &&
    isNonEmptyString(value.type) &&
    isNonEmptyString(value.path) &&
    (value.covers === undefined || isIdList(value.covers))
  );
}

/** The canonical `documentation.json` (stage 03-documentation). @public */
export const documentationSchema = z.looseObject({
  ...contractMetadataFields,
  documents: z.array(documentSchema),
});

// The shape rstack-agents' 03-documentation agent writes: documents_created[] paths (and `docs[]` on a harvested baseline).
/** The fast predicate of {@link documentationSchema} (see FastCheck). @internal */
export function isCanonicalDocumentation(value: unknown): boolean {
  return isObject(value) && hasContractMetadata(value) && isArrayOf(value.documents, isCanonicalDocument);
}

const rstackDocumentationSchema = z.looseObject({
  ...contractMetadataFields,
  documents_created: z.array(z.string().min(1)).optional(),
  docs: z.array(z.union([z.string().min(1), z.looseObject({ path: z.string().min(1) })])).optional(),
});

/** A document, normalized. `covers` is null when the shape cannot say what it covers. @public */
export interface NormalizedDocument {
  readonly type: string;
  readonly path: string;
  readonly covers: readonly string[] | null;
}

/** `documentation.json`, normalized. @public */
export interface DocumentationContract {
  readonly meta: ContractMetadata;
  readonly documents: readonly NormalizedDocument[];
}

// Normalizes a document type: upper case, `-`/space to `_` (`test-plan` → `TEST_PLAN`).
function normalizeType(type: string): string {
  return type
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
}

// The type a document's file name states (`docs/BRD.md` → `BRD`), or `OTHER`.
function documentTypeFromPath(path: string): string {
  const base = path.split('/').pop() ?? path;
  const stem = normalizeType(base.replace(/\.[^.]*$/, ''));
  for (const type of DOCUMENT_TYPES)
    if (stem === type || stem.startsWith(`${type}_`) || stem.endsWith(`_${type}`)) return type;
  return 'OTHER';
}

/** Reads documentation.json in its canonical shape or in rstack-agents' shape. @internal */
export function readDocumentation(input: unknown): ContractRead<DocumentationContract> {
  if (!hasKey(input, 'documents') && (hasKey(input, 'documents_created') || hasKey(input, 'docs'))) {
    return readWith(rstackDocumentationSchema, input, (parsed) => {
      const paths = [
        ...(parsed.documents_created ?? []),
        ...(parsed.docs ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.path)),
      ];
      return {
        meta: metadataOf(parsed),
        documents: paths.map((path) => ({ type: documentTypeFromPath(path), path, covers: null })),
      };
    });
  }
  return readWith(
    documentationSchema,
    input,
    (parsed) => ({
      meta: metadataOf(parsed),
      documents: parsed.documents.map((document) => ({
        type: normalizeType(document.type),
        path: document.path,
        covers: document.covers ?? null,
      })),
    }),
    isCanonicalDocumentation,
  );
}
