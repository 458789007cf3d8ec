import type { NormalizedStory } from '../contracts/jira-tickets.js';
import { type Finding, findingAt, listIds } from '../core/finding.js';
import type { ReviewModel } from '../core/model.js';

/** Points per developer per sprint above which a developer is overloaded (CRITICAL). @public */
export const OVERLOAD_POINTS = 15;

/** Points per developer per sprint above which a sprint is tight (WARNING). @public */
export const TIGHT_POINTS = 13;

// The story points of one developer in one sprint, and the stories that make them up.
interface Bucket {
  readonly assignee: string;
  readonly sprint: string;
  points: number;
  readonly stories: string[];
}

// Sums story points per developer and sprint, keeping the stories of each bucket.
function loadByDeveloper(stories: Iterable<NormalizedStory>): Bucket[] {
  const byAssignee = new Map<string, Map<string, Bucket>>();
  const buckets: Bucket[] = [];
  for (const story of stories) {
    if (story.assignee === null || story.sprint === null) continue;
    let sprints = byAssignee.get(story.assignee);
    if (sprints === undefined) {
      sprints = new Map();
      byAssignee.set(story.assignee, sprints);
    }
    let bucket = sprints.get(story.sprint.key);
    if (bucket === undefined) {
      bucket = { assignee: story.assignee, sprint: story.sprint.key, points: 0, stories: [] };
      sprints.set(story.sprint.key, bucket);
      buckets.push(bucket);
    }
    bucket.points += story.points;
    bucket.stories.push(story.id);
  }
  return buckets;
}

// Developer load findings: over 15 points CRITICAL, over 13 WARNING.
function overloadFindings(model: ReviewModel): Finding[] {
  const findings: Finding[] = [];
  for (const bucket of loadByDeveloper(model.stories.values())) {
    if (bucket.points <= TIGHT_POINTS) continue;
    const overloaded = bucket.points > OVERLOAD_POINTS;
    findings.push(
      findingAt(model, 'jira_tickets', {
        rule: overloaded ? 'capacity.developer_overloaded' : 'capacity.developer_tight',
        title: `${bucket.assignee} has ${bucket.points} points in sprint ${bucket.sprint}`,
        description: `${bucket.assignee} is assigned ${bucket.points} story points in sprint ${bucket.sprint} (${listIds(bucket.stories)}); ${overloaded ? `more than ${OVERLOAD_POINTS} is overloaded` : `more than ${TIGHT_POINTS} is tight but possible`}.`,
        ids: bucket.stories,
        action: `Move stories out of sprint ${bucket.sprint} for ${bucket.assignee} or reassign them, to at most ${TIGHT_POINTS} points.`,
      }),
    );
  }
  return findings;
}

// Scheduling findings: blockers after what they block, unscheduled stories, sprints outside the plan, missing assignees.
function scheduleFindings(model: ReviewModel): Finding[] {
  const findings: Finding[] = [];
  const planned = model.contracts.plan?.sprints ?? null;
  const plannedKeys = planned === null ? null : new Set(planned.map((sprint) => sprint.key));
  const unassigned: string[] = [];
  // A run schedules its stories when it has a plan or puts some story in a sprint.
  const scheduling = planned !== null || someScheduled(model);
  for (const story of model.stories.values()) {
    if (story.assignee === null) unassigned.push(story.id);
    if (story.sprint === null) {
      if (!scheduling) continue;
      findings.push(
        findingAt(model, 'jira_tickets', {
          rule: 'capacity.story_without_sprint',
          title: `${story.id} is in no sprint`,
          description: `User story ${story.id} has no sprint assignment.`,
          ids: [story.id],
          action: `Assign ${story.id} to a planned sprint.`,
          baseline: story.baseline,
        }),
      );
      continue;
    }
    if (plannedKeys !== null && !plannedKeys.has(story.sprint.key)) {
      findings.push(
        findingAt(model, 'jira_tickets', {
          rule: 'capacity.sprint_outside_plan',
          title: `${story.id} is in unplanned sprint ${story.sprint.key}`,
          description: `User story ${story.id} is scheduled in sprint ${story.sprint.key}, which the plan does not contain.`,
          ids: [story.id],
          action: `Move ${story.id} into a sprint of the plan, or extend the plan.`,
          extraArtifacts: planArtifact(model),
          baseline: story.baseline,
        }),
      );
    }
    for (let index = 0; index < story.blockedBy.length; index++) {
      const blockerId = story.blockedBy[index] as string;
      const blocker = model.stories.get(blockerId);
      const order = story.sprint.order;
      const blockerOrder = blocker?.sprint?.order ?? null;
      if (order === null || blockerOrder === null || blockerOrder <= order) continue;
      findings.push(
        findingAt(model, 'jira_tickets', {
          rule: 'capacity.blocker_scheduled_after',
          title: `${blockerId} is scheduled after ${story.id}, which it blocks`,
          description: `${story.id} (sprint ${story.sprint.key}) is blocked by ${blockerId}, scheduled later in sprint ${blocker?.sprint?.key ?? '?'}.`,
          ids: [story.id, blockerId],
          action: `Schedule ${blockerId} before ${story.id}, or move ${story.id} after it.`,
          baseline: story.baseline,
        }),
      );
    }
  }
  if (unassigned.length > 0) {
    findings.push(
      findingAt(model, 'jira_tickets', {
        rule: 'capacity.story_without_assignee',
        title: `${unassigned.length} stories name no assignee`,
        description: `Per-developer capacity cannot be checked for ${listIds(unassigned)}: they name no assignee.`,
        ids: unassigned,
        action: 'Set the assignee of every story.',
      }),
    );
  }
  return findings;
}

// True when some story is in a sprint.
function someScheduled(model: ReviewModel): boolean {
  for (const story of model.stories.values()) if (story.sprint !== null) return true;
  return false;
}

// The plan's artifact path, as an extra affected artifact.
function planArtifact(model: ReviewModel): string[] {
  return model.statuses.filter((status) => status.key === 'plan').map((status) => status.path);
}

// Utilization findings: a planned sprint below half its capacity (INFO).
function utilizationFindings(model: ReviewModel): Finding[] {
  const planned = model.contracts.plan?.sprints ?? null;
  if (planned === null) return [];
  const used = new Map<string, number>();
  for (const story of model.stories.values())
    if (story.sprint !== null) used.set(story.sprint.key, (used.get(story.sprint.key) ?? 0) + story.points);
  const findings: Finding[] = [];
  for (const sprint of planned) {
    const points = used.get(sprint.key) ?? 0;
    if (sprint.capacityPoints === null || sprint.capacityPoints <= 0 || points * 2 >= sprint.capacityPoints) continue;
    findings.push(
      findingAt(model, 'plan', {
        rule: 'capacity.sprint_underused',
        title: `Sprint ${sprint.key} uses ${points} of ${sprint.capacityPoints} points`,
        description: `Sprint ${sprint.key} is planned at ${sprint.capacityPoints} points but holds ${points}: under half its capacity (a possible acceleration).`,
        ids: [],
        action: `Pull work forward into sprint ${sprint.key} or lower its capacity.`,
      }),
    );
  }
  return findings;
}

/** Analysis 3, sprint capacity. @public */
export function analyseCapacity(model: ReviewModel): Finding[] {
  if (model.contracts.jira_tickets === null) return [];
  const withPlan = model.contracts.plan !== null;
  return [...overloadFindings(model), ...scheduleFindings(model), ...(withPlan ? utilizationFindings(model) : [])];
}
