import type { BugSwarm, FeedbackIssue } from '../contracts/feedback-issues.js';

/** Corrective issues on one module from which they form a bug swarm. @public */
export const BUG_SWARM_THRESHOLD = 3;

/** The id of the n-th bug swarm (1-based): `BSW-001`. @public */
export function bugSwarmId(index: number): string {
  return `BSW-${String(index).padStart(3, '0')}`;
}

// The owner most members name; ties go to the first named in report order.
function commonOwner(members: readonly FeedbackIssue[]): string | null {
  const counts = new Map<string, number>();
  for (const member of members) {
    const owner = member.remediation.agent_to_rerun;
    if (owner !== null) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [owner, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = owner;
  return best;
}

/**
 * The bug-swarm rule: three or more corrective CRITICAL/WARNING issues on the same module (file, service or stage
 * artifact) become one preventive "rewrite this module" remediation that names what to read first. @public
 */
export function detectBugSwarms(issues: readonly FeedbackIssue[]): { issues: FeedbackIssue[]; swarms: BugSwarm[] } {
  const byModule = new Map<string, FeedbackIssue[]>();
  for (const issue of issues) {
    if (issue.severity === 'INFO' || issue.remediation.maintenance_category !== 'corrective') continue;
    const module = issue.module ?? issue.affected_artifacts[0] ?? issue.source_agent;
    const members = byModule.get(module);
    if (members === undefined) byModule.set(module, [issue]);
    else members.push(issue);
  }
  const swarms: BugSwarm[] = [];
  const swarmOf = new Map<string, BugSwarm>();
  for (const [module, members] of byModule) {
    if (members.length < BUG_SWARM_THRESHOLD) continue;
    const ids = members.map((member) => member.id);
    const readFirst = [...new Set([module, ...members.flatMap((member) => member.affected_artifacts)])];
    const swarm: BugSwarm = {
      id: bugSwarmId(swarms.length + 1),
      module,
      issue_ids: ids,
      remediation: {
        action: `Bug swarm: ${members.length} corrective findings (${ids.join(', ')}) cluster on ${module}. Read ${readFirst.join(', ')} first, then refactor or rewrite ${module} as one change instead of ${members.length} patches.`,
        agent_to_rerun: commonOwner(members),
        estimated_effort: '1 day',
        can_auto_remediate: false,
        maintenance_category: 'preventive',
        read_first: readFirst,
      },
    };
    swarms.push(swarm);
    for (const member of members) swarmOf.set(member.id, swarm);
  }
  const updated = issues.map((issue) => {
    const swarm = swarmOf.get(issue.id);
    if (swarm === undefined) return issue;
    return {
      ...issue,
      remediation: {
        ...issue.remediation,
        action: `Covered by bug swarm ${swarm.id} (rewrite ${swarm.module}); do not patch this finding alone. ${issue.remediation.action}`,
        bug_swarm_id: swarm.id,
      },
    };
  });
  return { issues: updated, swarms };
}
