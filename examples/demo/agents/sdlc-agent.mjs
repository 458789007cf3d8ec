// A stand-in for the pipeline's agents: run as `node sdlc-agent.mjs`, it writes the stage contract of
// $GOAL_LOOP_STAGE into $GOAL_LOOP_RUN_DIR, derived from one small product definition. The testing agent
// forgets the last requirement on its first pass, which the consistency review catches.
import { mkdirSync, writeFileSync } from 'node:fs';

const stage = process.env.GOAL_LOOP_STAGE;
const runDir = process.env.GOAL_LOOP_RUN_DIR;
const retry = process.env.GOAL_LOOP_REASON === 'retry';
const timestamp = '2026-11-29T09:00:00Z';

const features = [
  { title: 'Create a note', endpoint: 'POST /notes', table: 'notes' },
  { title: 'List my notes', endpoint: 'GET /notes', table: 'notes' },
  { title: 'Share a note by link', endpoint: 'POST /notes/share', table: 'shares' },
  { title: 'Search notes by text', endpoint: 'GET /notes/search', table: 'notes' },
];
const pad = (n) => String(n).padStart(3, '0');
const fr = (i) => `FR-${pad(i + 1)}`;
const us = (i) => `US-${pad(i + 1)}`;
const ids = features.map((_, i) => fr(i));
const meta = (producedBy) => ({ contract_version: '1.1', produced_by: producedBy, timestamp });

// Each stage's contract, in the canonical shapes of the consistency review.
const contracts = {
  '01-transcript': () => [
    'transcript.json',
    {
      ...meta('transcript_agent'),
      meetings: [{ id: 'M-1', title: 'Kick-off' }],
      business_goals: ['Keep notes online'],
    },
  ],
  '02-requirements': () => [
    'requirement_spec.json',
    {
      ...meta('requirements_agent'),
      requirements: [
        ...features.map((f, i) => ({
          id: fr(i),
          type: 'functional',
          title: f.title,
          priority: 'must',
          acceptance: [`${f.title} works`],
        })),
        {
          id: 'NFR-001',
          type: 'non_functional',
          category: 'security',
          title: 'Only the owner reads a note',
          priority: 'must',
        },
      ],
    },
  ],
  '03-documentation': () => [
    'documentation.json',
    {
      ...meta('documentation_agent'),
      documents: ['BRD', 'FRD', 'SOW', 'HLD', 'TEST_PLAN'].map((type) => ({
        type,
        path: `docs/${type}.md`,
        covers: type === 'SOW' ? [] : ids,
      })),
    },
  ],
  '04-planning': () => [
    'plan.json',
    {
      ...meta('planning_agent'),
      sprints: [{ sprint: 1, capacity_points: 20 }],
      milestones: [{ id: 'M1', name: 'Notes online' }],
    },
  ],
  '05-jira': () => [
    'jira_tickets.json',
    {
      ...meta('jira_agent'),
      epics: [
        {
          epic_id: 'EPIC-001',
          epic_name: 'Notes',
          user_stories: features.map((f, i) => ({
            story_id: us(i),
            title: f.title,
            linked_requirements: [fr(i)],
            story_points: 3,
            sprint: 1,
            assignee: i % 2 === 0 ? 'ana' : 'ben',
          })),
        },
      ],
    },
  ],
  '06-architecture': () => [
    'system_design.json',
    {
      ...meta('architecture_agent'),
      services: [{ name: 'notes-api' }],
      api_endpoints: features.map((f) => ({
        method: f.endpoint.split(' ')[0],
        path: f.endpoint.split(' ')[1],
        service: 'notes-api',
      })),
      database: { tables: [{ name: 'notes' }, { name: 'shares' }] },
      security_controls: [{ id: 'SC-001', description: 'Owner check on every read', nfr_ids: ['NFR-001'] }],
    },
  ],
  '07-code': () => [
    'code_report.json',
    {
      ...meta('code_agent'),
      files: features.map((f, i) => ({
        path: `src/notes/feature-${i + 1}.ts`,
        implements: [us(i), fr(i), 'NFR-001'],
        service: 'notes-api',
        endpoints: [f.endpoint],
        tables: [f.table],
      })),
    },
  ],
  '08-testing': () => [
    'test_report.json',
    {
      ...meta('testing_agent'),
      test_cases: [
        ...features
          .slice(0, retry ? features.length : features.length - 1)
          .map((_, i) => ({ id: `TC-${pad(i + 1)}`, story_ids: [us(i)], requirement_ids: [fr(i)], status: 'passed' })),
        { id: 'TC-100', story_ids: [], requirement_ids: ['NFR-001'], controls: ['SC-001'], status: 'passed' },
      ],
    },
  ],
  '09-deployment': () => [
    'deployment_report.json',
    {
      ...meta('deployment_agent'),
      deployed_stories: features.map((_, i) => us(i)),
      environments: ['staging'],
      rollback: { strategy: 'redeploy previous image' },
    },
  ],
  '10-summary': () => ['summary.json', { ...meta('summary_agent'), overview: 'Notes app, first release' }],
};

const make = contracts[stage];
if (make === undefined) {
  console.error(`no agent for stage ${stage}`);
  process.exit(2);
}
const [file, contract] = make();
mkdirSync(`${runDir}/artifacts/stages/${stage}`, { recursive: true });
writeFileSync(`${runDir}/artifacts/stages/${stage}/${file}`, `${JSON.stringify(contract, null, 2)}\n`);
const note = stage === '08-testing' ? `: ${contract.test_cases.length} test cases` : '';
console.log(`wrote ${file}${note}`);
