import { z } from 'zod';
import { isArrayOf, isObject, isOptionalString } from '../../kit/zod-fast-path.js';
import { hasContractMetadata, isId } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  idSchema,
  metadataOf,
  readWith,
} from './metadata.js';

/** The risk levels of a threat. @public */
export const riskLevelSchema = z.enum(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']);

/** One threat (`THR-nnn`) of `threat_model.json`. @public */
export const threatSchema = z.looseObject({
  id: idSchema.describe('The threat id, THR-nnn: code_report files[].mitigates name it.'),
  risk_level: riskLevelSchema,
  affected_component: z.string().optional(),
  mitigation: z
    .union([
      z.string(),
      z.looseObject({ description: z.string().optional(), implementation_location: z.string().optional() }),
    ])
    .optional(),
});

const RISK_LEVELS: ReadonlySet<unknown> = new Set(riskLevelSchema.options);

// The fast predicate of threatSchema.
function isCanonicalThreat(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { mitigation } = value;
  return (
    isId(value.id) &&
    RISK_LEVELS.has(value.risk_level) &&
    isOptionalString(value.affected_component) &&
    (mitigation === undefined ||
      typeof mitigation === 'string' ||
      (isObject(mitigation) &&
        isOptionalString(mitigation.description) &&
        isOptionalString(mitigation.implementation_location)))
  );
}

/** The optional `threat_model.json` (stage 12-security-threat-model). @public */
export const threatModelSchema = z.looseObject({
  ...contractMetadataFields,
  threats: z.array(threatSchema),
});

/** The fast predicate of {@link threatModelSchema} (see FastCheck). @internal */
export function isCanonicalThreatModel(value: unknown): boolean {
  return isObject(value) && hasContractMetadata(value) && isArrayOf(value.threats, isCanonicalThreat);
}

/** A threat, normalized. @public */
export interface NormalizedThreat {
  readonly id: string;
  readonly risk: z.infer<typeof riskLevelSchema>;
  readonly component: string | null;
  readonly mitigation: string | null;
}

/** `threat_model.json`, normalized. @public */
export interface ThreatModelContract {
  readonly meta: ContractMetadata;
  readonly threats: readonly NormalizedThreat[];
}

/** Reads threat_model.json (canonical and rstack-agents' shapes). @internal */
export function readThreatModel(input: unknown): ContractRead<ThreatModelContract> {
  return readWith(
    threatModelSchema,
    input,
    (parsed) => ({
      meta: metadataOf(parsed),
      threats: parsed.threats.map((threat) => ({
        id: threat.id,
        risk: threat.risk_level,
        component: threat.affected_component?.trim() || null,
        mitigation:
          threat.mitigation === undefined
            ? null
            : typeof threat.mitigation === 'string'
              ? threat.mitigation
              : (threat.mitigation.description ?? null),
      })),
    }),
    isCanonicalThreatModel,
  );
}
