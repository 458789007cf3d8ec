import { z } from 'zod';
import { isArrayOf, isNonEmptyString, isObject, isOptionalString } from '../../kit/zod-fast-path.js';
import { hasContractMetadata, isId, isIdList, isNamed, isNameOrNamed } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  hasKey,
  idListSchema,
  idSchema,
  isHarvestShape,
  metadataOf,
  NO_ITEMS,
  readWith,
} from './metadata.js';

/** An API endpoint of the design. @public */
export const apiEndpointSchema = z.looseObject({
  method: z.string().min(1),
  path: z.string().min(1),
  service: z.string().optional(),
});

/** A security control (`SC-nnn`) of the design and the NFRs it implements. @public */
export const securityControlSchema = z.looseObject({
  id: idSchema.describe('The control id, SC-nnn: test_report test_cases[].controls name it.'),
  description: z.string().optional(),
  nfr_ids: idListSchema.describe(
    'Non-functional requirement ids (NFR-nnn) of requirement_spec.json the control implements.',
  ),
});

/** The canonical `system_design.json` (stage 06-architecture). @public */
export const systemDesignSchema = z.looseObject({
  ...contractMetadataFields,
  services: z.array(z.looseObject({ name: z.string().min(1) })),
  api_endpoints: z.array(apiEndpointSchema).optional(),
  database: z
    .looseObject({
      tables: z.array(z.union([z.string().min(1), z.looseObject({ name: z.string().min(1) })])).optional(),
    })
    .optional(),
  security_controls: z.array(securityControlSchema).optional(),
});

// The fast predicate of apiEndpointSchema.
function isCanonicalEndpoint(value: unknown): boolean {
  return (
    isObject(value) && isNonEmptyString(value.method) && isNonEmptyString(value.path) && isOptionalString(value.service)
  );
}

// The fast predicate of securityControlSchema.
function isCanonicalControl(value: unknown): boolean {
  return isObject(value) && isId(value.id) && isOptionalString(value.description) && isIdList(value.nfr_ids);
}

/** The fast predicate of {@link systemDesignSchema} (see FastCheck). @internal */
export function isCanonicalSystemDesign(value: unknown): boolean {
  if (!isObject(value) || !hasContractMetadata(value)) return false;
  const { services, api_endpoints: endpoints, database, security_controls: controls } = value;
  return (
    isArrayOf(services, isNamed) &&
    (endpoints === undefined || isArrayOf(endpoints, isCanonicalEndpoint)) &&
    (database === undefined ||
      (isObject(database) && (database.tables === undefined || isArrayOf(database.tables, isNameOrNamed)))) &&
    (controls === undefined || isArrayOf(controls, isCanonicalControl))
  );
}

// The baseline rstack-agents' `adopt` harvests for 06-architecture (harvest.js): languages, frameworks and top-level dirs, no design.
const harvestedSystemDesignSchema = z.looseObject({
  ...contractMetadataFields,
  tech_stack: z
    .looseObject({ languages: z.array(z.string()).optional(), frameworks: z.array(z.string()).optional() })
    .optional(),
  structure: z.array(z.string()).optional(),
});

/** An endpoint, normalized to `METHOD /path`. @public */
export interface NormalizedEndpoint {
  readonly key: string;
  readonly service: string | null;
}

/** A security control, normalized. @public */
export interface NormalizedControl {
  readonly id: string;
  readonly nfrIds: readonly string[];
}

/** `system_design.json`, normalized. @public */
export interface SystemDesignContract {
  readonly meta: ContractMetadata;
  readonly services: readonly string[];
  readonly endpoints: readonly NormalizedEndpoint[];
  readonly tables: readonly string[];
  readonly controls: readonly NormalizedControl[];
}

// Normalizes an endpoint to `METHOD /path` (upper-case method, single spaces, no trailing slash).
function endpointKey(method: string, path: string): string {
  const trimmed = path.trim().replace(/\/+$/, '');
  return `${method.trim().toUpperCase()} ${trimmed === '' ? '/' : trimmed}`;
}

// An endpoint already normal: an upper-case method, one space, and a path with no surrounding whitespace and no trailing slash (or exactly "/").
const NORMAL_ENDPOINT = /^[A-Z]+ (?:\/|[^\s/]|\S.*[^\s/])$/;

/** Normalizes an endpoint written as one string (`"get /users/"` → `GET /users`; one already normal is returned as is). @internal */
export function endpointKeyFromString(value: string): string {
  if (NORMAL_ENDPOINT.test(value)) return value;
  const match = /^\s*(\S+)\s+(.*)$/.exec(value);
  return match?.[1] !== undefined && match[2] !== undefined ? endpointKey(match[1], match[2]) : value.trim();
}

/** Reads system_design.json (canonical shape; rstack-agents' shape fits the same schema; an adoption's harvest has no services). @internal */
export function readSystemDesign(input: unknown): ContractRead<SystemDesignContract> {
  if (!hasKey(input, 'services') && isHarvestShape(input, ['tech_stack', 'structure'])) {
    return readWith(harvestedSystemDesignSchema, input, (parsed) => ({
      meta: metadataOf(parsed),
      services: NO_ITEMS,
      endpoints: NO_ITEMS,
      tables: NO_ITEMS,
      controls: NO_ITEMS,
    }));
  }
  return readWith(
    systemDesignSchema,
    input,
    (parsed) => ({
      meta: metadataOf(parsed),
      services: parsed.services.map((service) => service.name.trim()),
      endpoints: (parsed.api_endpoints ?? []).map((endpoint) => ({
        key: endpointKey(endpoint.method, endpoint.path),
        service: endpoint.service?.trim() ?? null,
      })),
      tables: (parsed.database?.tables ?? []).map((table) => (typeof table === 'string' ? table : table.name).trim()),
      controls: (parsed.security_controls ?? []).map((control) => ({ id: control.id, nfrIds: control.nfr_ids })),
    }),
    isCanonicalSystemDesign,
  );
}
