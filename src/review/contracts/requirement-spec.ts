import { z } from 'zod';
import { isArrayOf, isObject, isOptionalString } from '../../kit/zod-fast-path.js';
import { hasContractMetadata, isId } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  hasKey,
  idSchema,
  isBaselineItem,
  metadataOf,
  readWith,
} from './metadata.js';

// True for an array of strings (empty strings included; a hole is undefined, as zod reads it).
function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (typeof value[index] !== 'string') return false;
  return true;
}

/** The fast predicate of {@link requirementSchema} (see FastCheck). @internal */
export function isCanonicalRequirement(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { id, type, category, title, priority, acceptance, source } = value;
  return (
    isId(id) &&
    (type === 'functional' || type === 'non_functional') &&
    isOptionalString(category) &&
    typeof title === 'string' &&
    isOptionalString(priority) &&
    (acceptance === undefined || isStringList(acceptance)) &&
    isOptionalString(source)
  );
}

/**
 * One requirement of the canonical `requirement_spec.json`: `FR-nnn` (functional) or `NFR-nnn` (non-functional), with
 * an optional category (`security`, `compliance`, `performance`, …). @public
 */
export const requirementSchema = z.looseObject({
  id: idSchema.describe(
    'FR-nnn (functional) or NFR-nnn (non-functional): the id stories, documents, controls, code and tests link to.',
  ),
  type: z.enum(['functional', 'non_functional']),
  category: z.string().optional(),
  title: z.string(),
  priority: z.string().optional(),
  acceptance: z.array(z.string()).optional(),
  source: z.string().optional(),
});

/** The canonical `requirement_spec.json` (stage 02-requirements). @public */
export const requirementSpecSchema = z.looseObject({
  ...contractMetadataFields,
  requirements: z.array(requirementSchema),
});

/** The fast predicate of {@link requirementSpecSchema} (see FastCheck). @internal */
export function isCanonicalRequirementSpec(value: unknown): boolean {
  return isObject(value) && hasContractMetadata(value) && isArrayOf(value.requirements, isCanonicalRequirement);
}

const rstackFunctionalSchema = z.looseObject({
  id: idSchema,
  description: z.string().optional(),
  title: z.string().optional(),
  category: z.string().optional(),
  source: z.string().optional(),
});

const rstackNonFunctionalSchema = z.looseObject({
  id: idSchema,
  requirement: z.string().optional(),
  description: z.string().optional(),
  category: z.string().optional(),
  furps: z.string().optional(),
  source: z.string().optional(),
});

// The shape rstack-agents' 02-requirements agent writes: functional[] / non_functional[].
const rstackRequirementSpecSchema = z.looseObject({
  ...contractMetadataFields,
  functional: z.array(rstackFunctionalSchema).optional(),
  non_functional: z.array(rstackNonFunctionalSchema).optional(),
  requirement_sources: z.array(z.string()).optional(),
});

/** A requirement, normalized from either shape. @public */
export interface NormalizedRequirement {
  readonly id: string;
  readonly type: 'functional' | 'non_functional';
  readonly category: string | null;
  readonly title: string;
  readonly baseline: boolean;
}

/** `requirement_spec.json`, normalized. @public */
export interface RequirementSpecContract {
  readonly meta: ContractMetadata;
  readonly requirements: readonly NormalizedRequirement[];
  /** Baseline documents an adopted spec points at (`requirement_sources`). */
  readonly sources: readonly string[];
}

/** Reads requirement_spec.json in its canonical shape or in rstack-agents' shape. @internal */
export function readRequirementSpec(input: unknown): ContractRead<RequirementSpecContract> {
  if (!hasKey(input, 'requirements') && (hasKey(input, 'functional') || hasKey(input, 'non_functional'))) {
    return readWith(rstackRequirementSpecSchema, input, (parsed) => {
      const meta = metadataOf(parsed);
      const functional = (parsed.functional ?? []).map((item) => ({
        id: item.id,
        type: 'functional' as const,
        category: item.category ?? null,
        title: item.title ?? item.description ?? item.id,
        baseline: isBaselineItem(item.source, meta.harvested),
      }));
      const nonFunctional = (parsed.non_functional ?? []).map((item) => ({
        id: item.id,
        type: 'non_functional' as const,
        category: item.furps ?? item.category ?? null,
        title: item.requirement ?? item.description ?? item.id,
        baseline: isBaselineItem(item.source, meta.harvested),
      }));
      return { meta, requirements: [...functional, ...nonFunctional], sources: parsed.requirement_sources ?? [] };
    });
  }
  return readWith(
    requirementSpecSchema,
    input,
    (parsed) => {
      const meta = metadataOf(parsed);
      const requirements = parsed.requirements.map((item) => ({
        id: item.id,
        type: item.type,
        category: item.category ?? null,
        title: item.title,
        baseline: isBaselineItem(item.source, meta.harvested),
      }));
      const sources = (parsed as { requirement_sources?: unknown }).requirement_sources;
      return {
        meta,
        requirements,
        sources: Array.isArray(sources) ? sources.filter((entry): entry is string => typeof entry === 'string') : [],
      };
    },
    isCanonicalRequirementSpec,
  );
}
