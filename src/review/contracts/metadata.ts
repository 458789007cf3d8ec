import { z } from 'zod';
import type { Issue } from '../../errors.js';
import { issuesFromZod } from '../../errors.js';
import { type FastCheck, isObject } from '../../kit/zod-fast-path.js';
import { hasContractMetadata } from './fast-parse.js';

/** The provenance value rstack-agents' `adopt` stamps on harvested artifacts. @public */
export const BROWNFIELD_SOURCE = 'brownfield-adoption';

/**
 * The metadata fields every stage contract carries (all optional: their absence or an invalid timestamp is a
 * version-consistency finding, not a malformed contract). @public
 */
export const contractMetadataFields = {
  contract_version: z.union([z.string(), z.number()]).optional().describe('Contract version, e.g. "1.1".'),
  produced_by: z.string().optional().describe('The agent or tool that wrote the contract.'),
  timestamp: z.string().optional().describe('When the contract was written, ISO 8601.'),
  source: z.string().optional().describe('"brownfield-adoption" on artifacts harvested by an adoption.'),
};

/** The longest id a stage contract may hold, in characters. @public */
export const MAX_ID_LENGTH = 256;

/** One id (requirement, story, test, threat or control): 1 to {@link MAX_ID_LENGTH} characters. @internal */
export const idSchema = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH, {
    error: (issue) =>
      `an id has at most ${MAX_ID_LENGTH} characters (this one has ${String((issue.input as string).length)})`,
  });

/** A list of ids (requirement, story, test, threat or control ids). @public */
export const idListSchema = z.array(idSchema);

/** The one empty list normalized contracts share for an absent optional list (frozen: never allocated per item). @internal */
export const NO_ITEMS: readonly never[] = Object.freeze([]);

/**
 * `items`, each normalized: the list itself when `normalize` returns every item unchanged (as in most contracts: no
 * list copied per item, no list of a large report rebuilt), else a new list. @internal
 */
export function normalizedItems<T extends U, U>(items: readonly T[], normalize: (item: T) => U): readonly U[] {
  for (let index = 0; index < items.length; index++) {
    const normal = normalize(items[index] as T);
    if (normal === items[index]) continue;
    const copy: U[] = items.slice(0, index);
    copy.push(normal);
    for (let rest = index + 1; rest < items.length; rest++) copy.push(normalize(items[rest] as T));
    return copy;
  }
  return items;
}

/** The metadata of one contract, normalized. @public */
export interface ContractMetadata {
  readonly contractVersion: string | null;
  readonly producedBy: string | null;
  readonly timestamp: string | null;
  /** True when the contract says it was harvested by a brownfield adoption. */
  readonly harvested: boolean;
}

/** Reads the normalized metadata out of a parsed contract object. @internal */
export function metadataOf(document: {
  contract_version?: string | number | undefined;
  produced_by?: string | undefined;
  timestamp?: string | undefined;
  source?: string | undefined;
}): ContractMetadata {
  return {
    contractVersion: document.contract_version === undefined ? null : String(document.contract_version),
    producedBy: document.produced_by ?? null,
    timestamp: document.timestamp ?? null,
    harvested: document.source === BROWNFIELD_SOURCE,
  };
}

/** True when an item (or, without its own `source`, its contract) is harvested baseline. @public */
export function isBaselineItem(itemSource: unknown, contractHarvested: boolean): boolean {
  if (typeof itemSource === 'string') return itemSource === BROWNFIELD_SOURCE;
  return contractHarvested;
}

/** The outcome of reading one stage contract's JSON value: its normalized content, or the issues that make it malformed. @public */
export type ContractRead<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** Validates `input` against a zod schema and maps the parsed value, or collects every issue. @internal */
export function readWith<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  map: (parsed: z.output<S>) => T,
  fast?: FastCheck,
): ContractRead<T> {
  if (fast?.(input) === true) return { ok: true, value: map(input as z.output<S>) };
  const result = schema.safeParse(input);
  if (!result.success) return { ok: false, issues: issuesFromZod(result.error) };
  return { ok: true, value: map(result.data) };
}

/** True when `input` is a plain JSON object holding `key` as an own property. @internal */
export function hasKey(input: unknown, key: string): boolean {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && Object.hasOwn(input, key);
}

/**
 * True when `input` is a stage artifact rstack-agents' `adopt` harvested (`"source": "brownfield-adoption"`) in its own
 * shape, recognized by one of that shape's `keys` (e.g. `tech_stack` for 06-architecture). @internal
 */
export function isHarvestShape(input: unknown, keys: readonly string[]): boolean {
  return (
    hasKey(input, 'source') &&
    (input as { source: unknown }).source === BROWNFIELD_SOURCE &&
    keys.some((key) => hasKey(input, key))
  );
}

/** The metadata of a contract that is only checked for its metadata. @public */
export const metadataOnlySchema = z.looseObject({ ...contractMetadataFields });

/** A contract read for its metadata only (transcript, summary, cost estimate). @public */
export interface MetadataOnlyContract {
  readonly meta: ContractMetadata;
}

/** The fast predicate of {@link metadataOnlySchema} (see FastCheck). @internal */
export function isMetadataOnly(value: unknown): boolean {
  return isObject(value) && hasContractMetadata(value);
}

/** Reads a contract that the review checks only for its metadata. @internal */
export function readMetadataOnly(input: unknown): ContractRead<MetadataOnlyContract> {
  return readWith(metadataOnlySchema, input, (parsed) => ({ meta: metadataOf(parsed) }), isMetadataOnly);
}
