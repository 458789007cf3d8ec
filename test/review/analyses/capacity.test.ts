import { describe, expect, it } from 'vitest';
import { cleanRun, issuesOf, reviewMutated, rulesOf, stories } from '../fixtures.js';

// Reviews the clean run with one developer carrying `points` in sprint 1.
function withLoad(points: number) {
  return reviewMutated((run) => {
    const [first] = stories(run);
    if (first !== undefined) first.story_points = points;
    run.plan.sprints = [{ sprint: 1 }, { sprint: 2, capacity_points: 10 }];
  });
}

describe('sprint capacity', () => {
  it.each([
    [13, []],
    [14, ['capacity.developer_tight']],
    [15, ['capacity.developer_tight']],
    [16, ['capacity.developer_overloaded']],
  ])('%i points per developer per sprint → %j', (points, rules) => {
    const report = withLoad(points);
    expect(rulesOf(report)).toEqual(rules);
  });

  it('over 15 is CRITICAL and over 13 is a WARNING, both owned by 05-jira', () => {
    expect(withLoad(16).issues[0]).toMatchObject({
      severity: 'CRITICAL',
      related_ids: ['US-001'],
      remediation: { agent_to_rerun: '05-jira' },
    });
    expect(withLoad(14).issues[0]).toMatchObject({ severity: 'WARNING' });
  });

  it('sums the points of one developer across stories of a sprint', () => {
    const report = reviewMutated((run) => {
      const [first, second] = stories(run);
      if (first !== undefined && second !== undefined) {
        second.sprint = 1;
        second.blocked_by = [];
        first.story_points = 9;
        second.story_points = 7;
      }
      run.plan.sprints = [{ sprint: 1 }, { sprint: 2 }];
    });
    expect(issuesOf(report, 'capacity.developer_overloaded')[0]?.related_ids).toEqual(['US-001', 'US-002']);
  });

  it('a story scheduled before the story that blocks it is CRITICAL', () => {
    const report = reviewMutated((run) => {
      const [first, second] = stories(run);
      if (first !== undefined && second !== undefined) {
        first.blocked_by = ['US-002'];
        second.blocked_by = [];
      }
    });
    expect(rulesOf(report)).toEqual(['capacity.blocker_scheduled_after']);
    expect(report.issues[0]).toMatchObject({ severity: 'CRITICAL', related_ids: ['US-001', 'US-002'] });
  });

  it('a story in no sprint is a WARNING; a sprint outside the plan is a WARNING', () => {
    const unscheduled = reviewMutated((run) => {
      const [, second] = stories(run);
      if (second !== undefined) second.sprint = null;
    });
    expect(rulesOf(unscheduled)).toContain('capacity.story_without_sprint');
    const unplanned = reviewMutated((run) => {
      const [, second] = stories(run);
      if (second !== undefined) second.sprint = 'Sprint 7';
    });
    expect(rulesOf(unplanned)).toContain('capacity.sprint_outside_plan');
    expect(issuesOf(unplanned, 'capacity.sprint_outside_plan')[0]?.severity).toBe('WARNING');
  });

  it('a run that does not schedule (no plan, no story in a sprint) has no story without a sprint', () => {
    const unplannedRun = (keep: number) =>
      reviewMutated(
        (run) => {
          stories(run).forEach((story, index) => {
            if (index >= keep) story.sprint = null;
          });
          delete (run as Partial<typeof run>).plan;
        },
        { stages: ['02-requirements', '05-jira', '07-code', '08-testing', '09-deployment'] },
      );
    expect(rulesOf(unplannedRun(0))).not.toContain('capacity.story_without_sprint');
    // A plan schedules even when no story is in a sprint yet: every story is then unscheduled.
    const plannedOnly = reviewMutated((run) => {
      for (const story of stories(run)) story.sprint = null;
    });
    expect(issuesOf(plannedOnly, 'capacity.story_without_sprint')).toHaveLength(stories(cleanRun()).length);
    // One story in a sprint: the run schedules, and the others are unscheduled.
    expect(issuesOf(unplannedRun(1), 'capacity.story_without_sprint').length).toBeGreaterThan(0);
  });

  it('a sprint under half its capacity is INFO; stories without assignee are one INFO', () => {
    const underused = reviewMutated((run) => {
      run.plan.sprints = [{ sprint: 1, capacity_points: 40 }, { sprint: 2 }];
    });
    expect(rulesOf(underused)).toEqual(['capacity.sprint_underused']);
    expect(underused.issues[0]?.severity).toBe('INFO');
    const unassigned = reviewMutated((run) => {
      for (const story of stories(run)) delete story.assignee;
    });
    expect(rulesOf(unassigned)).toEqual(['capacity.story_without_assignee']);
  });
});
