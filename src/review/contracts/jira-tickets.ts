import { z } from 'zod';
import { type SprintRef, sprintRef, sprintRefSchema } from './plan.js';
import { type ContractMetadata, type ContractRead, contractMetadataFields, idListSchema, isBaselineItem, metadataOf, readWith } from './metadata.js';

/**
 * One user story (`US-nnn`) of `jira_tickets.json`: the requirements it
 * implements, its points, its sprint (absent or null when unscheduled), its
 * assignee, and the stories that block it.
 *
 * @public
 */
export const userStorySchema = z.looseObject({
  story_id: z.string().min(1),
  title: z.string(),
  linked_requirements: idListSchema,
  story_points: z.number().min(0).optional(),
  sprint: sprintRefSchema.nullable().optional(),
  assignee: z.string().nullable().optional(),
  blocked_by: idListSchema.optional(),
  source: z.string().optional(),
});

/**
 * The canonical `jira_tickets.json` (stage 05-jira): epics holding user
 * stories. rstack-agents' 05-jira agent writes the same shape.
 *
 * @public
 */
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

/** Reads jira_tickets.json (canonical and rstack-agents' shapes are the same). @internal */
export function readJiraTickets(input: unknown): ContractRead<JiraTicketsContract> {
  return readWith(jiraTicketsSchema, input, (parsed) => {
    const meta = metadataOf(parsed);
    const stories = parsed.epics.flatMap((epic) =>
      epic.user_stories.map((story) => ({
        id: story.story_id,
        title: story.title,
        epic: epic.epic_id ?? epic.epic_name ?? null,
        requirementIds: story.linked_requirements,
        points: story.story_points ?? 0,
        sprint: story.sprint === undefined || story.sprint === null ? null : sprintRef(story.sprint),
        assignee: story.assignee === undefined || story.assignee === null || story.assignee.trim() === '' ? null : story.assignee.trim(),
        blockedBy: story.blocked_by ?? [],
        baseline: isBaselineItem(story.source, meta.harvested),
      })),
    );
    return { meta, stories };
  });
}
