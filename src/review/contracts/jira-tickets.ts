import { z } from 'zod';
import { isArrayOf, isNonEmptyString, isObject, isOptionalString } from '../../kit/zod-fast-path.js';
import { hasContractMetadata, isId, isIdList } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  idListSchema,
  idSchema,
  isBaselineItem,
  metadataOf,
  NO_ITEMS,
  readWith,
} from './metadata.js';
import { type SprintRef, sprintRef, sprintRefSchema } from './plan.js';

/** The fast predicate of {@link userStorySchema} (see FastCheck). @internal */
export function isCanonicalStory(value: unknown): boolean {
  if (!isObject(value)) return false;
  const {
    story_id: id,
    title,
    linked_requirements: links,
    story_points: points,
    sprint,
    assignee,
    blocked_by: blockers,
    source,
  } = value;
  const validPoints = points === undefined || (typeof points === 'number' && Number.isFinite(points) && points >= 0);
  const validSprint =
    sprint === undefined ||
    sprint === null ||
    (typeof sprint === 'number' && Number.isFinite(sprint)) ||
    isNonEmptyString(sprint);
  return (
    isId(id) &&
    typeof title === 'string' &&
    isIdList(links) &&
    validPoints &&
    validSprint &&
    (assignee === null || isOptionalString(assignee)) &&
    (blockers === undefined || isIdList(blockers)) &&
    isOptionalString(source)
  );
}

/**
 * One user story (`US-nnn`) of `jira_tickets.json`: the requirements it implements, its points, its sprint (absent or
 * null when unscheduled), its assignee, and the stories that block it. @public
 */
export const userStorySchema = z.looseObject({
  story_id: idSchema.describe(
    'The story id, US-nnn: code_report implements, test_report story_ids and deployment_report deployed_stories name it.',
  ),
  title: z.string(),
  linked_requirements: idListSchema.describe(
    'Requirement ids (FR-nnn, NFR-nnn) of requirement_spec.json the story implements; an FR no story links is CRITICAL.',
  ),
  story_points: z.number().min(0).optional(),
  sprint: sprintRefSchema.nullable().optional(),
  assignee: z.string().nullable().optional(),
  blocked_by: idListSchema
    .describe(
      'Story ids (US-nnn) that must be done first; a story scheduled in an earlier sprint than one of them is a finding.',
    )
    .optional(),
  source: z.string().optional(),
});

/** The canonical `jira_tickets.json` (stage 05-jira): epics holding user stories. @public */
export const jiraTicketsSchema = z.looseObject({
  ...contractMetadataFields,
  epics: z.array(
    z.looseObject({
      epic_id: z.string().optional(),
      epic_name: z.string().optional(),
      user_stories: z.array(userStorySchema),
    }),
  ),
});

// The fast predicate of an epic of jiraTicketsSchema.
function isCanonicalEpic(value: unknown): boolean {
  return (
    isObject(value) &&
    isOptionalString(value.epic_id) &&
    isOptionalString(value.epic_name) &&
    isArrayOf(value.user_stories, isCanonicalStory)
  );
}

/** The fast predicate of {@link jiraTicketsSchema} (see FastCheck). @internal */
export function isCanonicalJiraTickets(value: unknown): boolean {
  return isObject(value) && hasContractMetadata(value) && isArrayOf(value.epics, isCanonicalEpic);
}

/** A user story, normalized. @public */
export interface NormalizedStory {
  readonly id: string;
  readonly title: string;
  readonly epic: string | null;
  readonly requirementIds: readonly string[];
  readonly points: number;
  readonly sprint: SprintRef | null;
  readonly assignee: string | null;
  readonly blockedBy: readonly string[];
  readonly baseline: boolean;
}

/** `jira_tickets.json`, normalized. @public */
export interface JiraTicketsContract {
  readonly meta: ContractMetadata;
  readonly stories: readonly NormalizedStory[];
}

// The sprint reference of each sprint value, one per value (stories share it).
function sprintCache(): (value: number | string) => SprintRef {
  const sprints = new Map<number | string, SprintRef>();
  return (value) => sprints.get(value) ?? sprints.set(value, sprintRef(value)).get(value) ?? sprintRef(value);
}

// One story of an epic, normalized.
function normalizedStory(
  story: z.output<typeof userStorySchema>,
  epic: string | null,
  harvested: boolean,
  sprintOf: (value: number | string) => SprintRef,
): NormalizedStory {
  return {
    id: story.story_id,
    title: story.title,
    epic,
    requirementIds: story.linked_requirements,
    points: story.story_points ?? 0,
    sprint: story.sprint === undefined || story.sprint === null ? null : sprintOf(story.sprint),
    assignee:
      story.assignee === undefined || story.assignee === null || story.assignee.trim() === ''
        ? null
        : story.assignee.trim(),
    blockedBy: story.blocked_by ?? NO_ITEMS,
    baseline: isBaselineItem(story.source, harvested),
  };
}

// The canonical shape read in place, each epic and story checked (isCanonicalJiraTickets, item by item) and normalized in one pass.
function readCanonicalJiraTickets(input: unknown): ContractRead<JiraTicketsContract> | null {
  if (!isObject(input) || !hasContractMetadata(input) || !Array.isArray(input.epics)) return null;
  const meta = metadataOf(input as z.output<typeof jiraTicketsSchema>);
  const epics: unknown[] = input.epics;
  const sprintOf = sprintCache();
  const stories: NormalizedStory[] = [];
  for (let at = 0; at < epics.length; at++) {
    const epic = epics[at];
    if (!isObject(epic) || !isOptionalString(epic.epic_id) || !isOptionalString(epic.epic_name)) return null;
    if (!Array.isArray(epic.user_stories)) return null;
    const epicId = (epic.epic_id ?? epic.epic_name ?? null) as string | null;
    const userStories: unknown[] = epic.user_stories;
    for (let index = 0; index < userStories.length; index++) {
      const story = userStories[index];
      if (!isCanonicalStory(story)) return null;
      stories.push(normalizedStory(story as z.output<typeof userStorySchema>, epicId, meta.harvested, sprintOf));
    }
  }
  return { ok: true, value: { meta, stories } };
}

/** Reads jira_tickets.json (canonical and rstack-agents' shapes are the same). @internal */
export function readJiraTickets(input: unknown): ContractRead<JiraTicketsContract> {
  return (
    readCanonicalJiraTickets(input) ??
    readWith(jiraTicketsSchema, input, (parsed) => {
      const meta = metadataOf(parsed);
      const sprintOf = sprintCache();
      const stories = parsed.epics.flatMap((epic) =>
        epic.user_stories.map((story) =>
          normalizedStory(story, epic.epic_id ?? epic.epic_name ?? null, meta.harvested, sprintOf),
        ),
      );
      return { meta, stories };
    })
  );
}
