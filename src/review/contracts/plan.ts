import { z } from 'zod';
import {
  isArrayOf,
  isNonEmptyString,
  isNonNegativeNumber,
  isObject,
  isOptionalString,
} from '../../kit/zod-fast-path.js';
import { hasContractMetadata } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  hasKey,
  metadataOf,
  readWith,
} from './metadata.js';

/** A sprint reference: a number (`2`) or a label (`"2"`, `"Sprint 2"`). @public */
export const sprintRefSchema = z.union([z.number(), z.string().min(1)]);

/** One sprint of the canonical `plan.json`, with the team's capacity in story points when known. @public */
export const sprintSchema = z.looseObject({
  sprint: sprintRefSchema,
  capacity_points: z.number().min(0).optional(),
});

/** The canonical `plan.json` (stage 04-planning). @public */
export const planSchema = z.looseObject({
  ...contractMetadataFields,
  sprints: z.array(sprintSchema),
  milestones: z.array(z.looseObject({ id: z.string().optional(), name: z.string().optional() })),
});

// The fast predicate of sprintSchema.
function isCanonicalSprint(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { sprint, capacity_points: capacity } = value;
  return (
    ((typeof sprint === 'number' && Number.isFinite(sprint)) || isNonEmptyString(sprint)) &&
    (capacity === undefined || isNonNegativeNumber(capacity))
  );
}

// The fast predicate of a milestone of planSchema.
function isCanonicalMilestone(value: unknown): boolean {
  return isObject(value) && isOptionalString(value.id) && isOptionalString(value.name);
}

/** The fast predicate of {@link planSchema} (see FastCheck). @internal */
export function isCanonicalPlan(value: unknown): boolean {
  return (
    isObject(value) &&
    hasContractMetadata(value) &&
    isArrayOf(value.sprints, isCanonicalSprint) &&
    isArrayOf(value.milestones, isCanonicalMilestone)
  );
}

// The shape rstack-agents' 04-planning agent writes: milestones[], tasks[], risks[] (no sprints).
const rstackPlanSchema = z.looseObject({
  ...contractMetadataFields,
  milestones: z.array(z.looseObject({ name: z.string().optional() })),
  tasks: z.array(z.looseObject({ id: z.string().optional() })).optional(),
});

/** A sprint reference, normalized: `key` identifies it, `order` sorts it (the number it states, or null when it states none). @public */
export interface SprintRef {
  readonly key: string;
  readonly order: number | null;
}

/** Normalizes a sprint reference: 2, "2" and "Sprint 2" all have order 2 and key "2". @internal */
export function sprintRef(value: number | string): SprintRef {
  if (typeof value === 'number') return { key: String(value), order: Number.isFinite(value) ? value : null };
  const match = /^\s*(?:sprint[\s_-]*)?(\d+)\s*$/i.exec(value);
  if (match?.[1] !== undefined) return { key: String(Number(match[1])), order: Number(match[1]) };
  return { key: value.trim(), order: null };
}

/** A planned sprint, normalized. @public */
export interface NormalizedSprint extends SprintRef {
  readonly capacityPoints: number | null;
}

/** `plan.json`, normalized. `sprints` is null when the shape has no sprint list. @public */
export interface PlanContract {
  readonly meta: ContractMetadata;
  readonly sprints: readonly NormalizedSprint[] | null;
  readonly milestones: number;
}

/** Reads plan.json in its canonical shape or in rstack-agents' shape. @internal */
export function readPlan(input: unknown): ContractRead<PlanContract> {
  if (!hasKey(input, 'sprints') && hasKey(input, 'milestones')) {
    return readWith(rstackPlanSchema, input, (parsed) => ({
      meta: metadataOf(parsed),
      sprints: null,
      milestones: parsed.milestones.length,
    }));
  }
  return readWith(
    planSchema,
    input,
    (parsed) => ({
      meta: metadataOf(parsed),
      sprints: parsed.sprints.map((sprint) => ({
        ...sprintRef(sprint.sprint),
        capacityPoints: sprint.capacity_points ?? null,
      })),
      milestones: parsed.milestones.length,
    }),
    isCanonicalPlan,
  );
}
