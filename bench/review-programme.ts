// A synthetic programme in the canonical stage-contract shapes, at any scale, for the review benchmark.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../src/review/core/contract-slots.js';

/** The sizes of a programme: 1× is 100 FRs, 400 stories, 1,000 tests, 1,000 code files. */
export interface ProgrammeSize {
  readonly frs: number;
  readonly nfrs: number;
  readonly stories: number;
  readonly tests: number;
  readonly files: number;
  readonly developers: number;
  readonly services: number;
  readonly endpoints: number;
  readonly tables: number;
  readonly threats: number;
}

/** The sizes at a scale factor (100 gives 10,000 FRs, 40,000 stories, 100,000 tests and code files). */
export function programmeSize(scale: number): ProgrammeSize {
  return {
    frs: 100 * scale,
    nfrs: 10 * scale,
    stories: 400 * scale,
    tests: 1000 * scale,
    files: 1000 * scale,
    developers: 10 * scale,
    services: 5 * scale,
    endpoints: 40 * scale,
    tables: 20 * scale,
    threats: 10 * scale,
  };
}

const SPRINTS = 10;
const POINTS = 3;
const id = (prefix: string, n: number): string => `${prefix}-${String(n + 1).padStart(6, '0')}`;
const meta = (minute: number) => ({
  contract_version: '1.1',
  produced_by: 'bench',
  timestamp: `2025-01-31T10:${String(minute).padStart(2, '0')}:00Z`,
});
// Deliberate gaps, proportionate to size: 1% of stories untested, 0.5% of FRs without code, 0.2% of tests failing.
const untested = (story: number): boolean => story % 100 === 99;
const uncoded = (fr: number): boolean => fr % 200 === 199;
const failing = (test: number): boolean => test % 500 === 7;
const isSecurity = (nfr: number): boolean => nfr % 2 === 0;

// requirement_spec, documentation, plan and jira_tickets.
function upstream(size: ProgrammeSize): Partial<Record<ContractKey, unknown>> {
  const requirements = [
    ...Array.from({ length: size.frs }, (_, f) => ({
      id: id('FR', f),
      type: 'functional',
      title: `Users can manage resource ${f} in module ${f % 37}`,
      priority: f % 3 === 0 ? 'must' : 'should',
      acceptance: [
        `Given a user, when they create resource ${f}, then it is stored`,
        `Resource ${f} is listed within 200 ms`,
      ],
    })),
    ...Array.from({ length: size.nfrs }, (_, n) => ({
      id: id('NFR', n),
      type: 'non_functional',
      category: isSecurity(n) ? 'security' : 'performance',
      title: `Quality attribute ${n}`,
    })),
  ];
  const epics = Array.from({ length: size.frs / 10 }, (_, e) => ({
    epic_id: `EPIC-${e + 1}`,
    epic_name: `Module ${e}`,
    user_stories: [] as object[],
  }));
  const perSprint = size.stories / SPRINTS;
  for (let s = 0; s < size.stories; s++) {
    const sprint = Math.floor(s / perSprint);
    const blocked = sprint > 0 && s % 10 === 0 ? { blocked_by: [id('US', s - perSprint)] } : {};
    epics[Math.floor(s / 40)]?.user_stories.push({
      story_id: id('US', s),
      title: `As a user I want story ${s} of resource ${Math.floor(s / 4)}`,
      linked_requirements: [id('FR', Math.floor(s / 4))],
      story_points: POINTS,
      sprint: sprint + 1,
      assignee: `dev-${Math.floor((s % perSprint) / 4)}`,
      ...blocked,
    });
  }
  const frd = Array.from({ length: size.frs / 10 }, (_, e) => ({
    type: 'FRD',
    path: `docs/frd/module-${e}.md`,
    covers: Array.from({ length: 10 }, (_, k) => id('FR', e * 10 + k)),
  }));
  const documents = [
    ...['BRD', 'SOW', 'HLD', 'TEST_PLAN'].map((type) => ({ type, path: `docs/${type}.md`, covers: [] })),
    ...frd,
    ...Array.from({ length: size.services }, (_, v) => ({ type: 'API', path: `docs/api/svc-${v}.md` })),
  ];
  return {
    transcript: { ...meta(0), meetings: [{ id: 'M-1', notes: 'kick-off' }] },
    requirement_spec: { ...meta(1), requirements },
    documentation: { ...meta(2), documents },
    plan: {
      ...meta(3),
      sprints: Array.from({ length: SPRINTS }, (_, s) => ({
        sprint: s + 1,
        capacity_points: size.developers * 4 * POINTS,
      })),
      milestones: [
        { id: 'M1', name: 'MVP' },
        { id: 'M2', name: 'GA' },
      ],
    },
    jira_tickets: { ...meta(4), epics },
  };
}

// system_design, code_report, test_report, deployment_report and the rest.
function downstream(size: ProgrammeSize): Partial<Record<ContractKey, unknown>> {
  const method = (e: number): string => ['GET', 'POST', 'PUT', 'DELETE'][e % 4] ?? 'GET';
  const route = (e: number): string => `/api/svc-${e % size.services}/resource-${e}`;
  const securityNfrs = Array.from({ length: size.nfrs }, (_, n) => n).filter(isSecurity);
  const coded = Array.from({ length: size.stories }, (_, s) => s).filter((s) => !uncoded(Math.floor(s / 4)));
  const tested = Array.from({ length: size.stories }, (_, s) => s).filter((s) => !untested(s));
  const files = Array.from({ length: size.files }, (_, j) => {
    const story = coded[j % coded.length] ?? 0;
    const extra =
      j < size.endpoints
        ? { endpoints: [`${method(j)} ${route(j)}`] }
        : j < size.endpoints + size.tables
          ? { tables: [`table_${j - size.endpoints}`] }
          : {};
    return {
      path: `src/svc-${j % size.services}/feature-${story}/part-${j}.ts`,
      implements: [id('US', story), id('FR', Math.floor(story / 4))],
      service: `svc-${j % size.services}`,
      ...extra,
      ...(j < size.threats ? { mitigates: [id('THR', j)] } : {}),
      language: 'typescript',
      lines: 40 + (j % 200),
    };
  });
  const tests = Array.from({ length: size.tests }, (_, k) => {
    const status = failing(k) ? 'failed' : 'passed';
    if (k < size.nfrs)
      return {
        id: id('TC', k),
        name: `quality ${k}`,
        story_ids: [],
        requirement_ids: [id('NFR', k)],
        ...(isSecurity(k) ? { controls: [id('SC', k)] } : {}),
        status,
        duration_ms: 5 + (k % 90),
      };
    const story = tested[k % tested.length] ?? 0;
    return {
      id: id('TC', k),
      name: `verifies story ${story}, scenario ${k % 3}`,
      story_ids: [id('US', story)],
      requirement_ids: [id('FR', Math.floor(story / 4))],
      status,
      duration_ms: 5 + (k % 90),
    };
  });
  const threats = Array.from({ length: size.threats }, (_, t) => ({
    id: id('THR', t),
    risk_level: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'][t % 4],
    affected_component: `svc-${t % size.services}`,
    mitigation: `Mitigation ${t}`,
  }));
  return {
    system_design: {
      ...meta(5),
      services: Array.from({ length: size.services }, (_, v) => ({ name: `svc-${v}` })),
      api_endpoints: Array.from({ length: size.endpoints }, (_, e) => ({
        method: method(e),
        path: route(e),
        service: `svc-${e % size.services}`,
      })),
      database: { engine: 'postgres', tables: Array.from({ length: size.tables }, (_, t) => ({ name: `table_${t}` })) },
      security_controls: securityNfrs.map((n) => ({
        id: id('SC', n),
        description: `control ${n}`,
        nfr_ids: [id('NFR', n)],
      })),
    },
    code_report: { ...meta(6), files },
    test_report: { ...meta(7), test_cases: tests },
    deployment_report: {
      ...meta(8),
      deployed_stories: Array.from({ length: size.stories }, (_, s) => id('US', s)),
      environments: ['staging', 'production'],
      rollback: 'helm rollback',
    },
    summary: { ...meta(9), status: 'PASS' },
    threat_model: { ...meta(10), threats },
    compliance_report: { ...meta(11), frameworks: ['GDPR'] },
    cost_estimate: { ...meta(12), total_usd: 1000 * size.frs },
  };
}

/** Every contract of a programme at this scale, by key. */
function programmeDocuments(scale: number): Partial<Record<ContractKey, unknown>> {
  const size = programmeSize(scale);
  return { ...upstream(size), ...downstream(size) };
}

/** Writes a programme's contracts (compact JSON) at their canonical paths under `root/runDir`; returns their paths and total bytes. */
export async function writeProgramme(
  root: string,
  runDir: string,
  scale: number,
): Promise<{ paths: string[]; bytes: number }> {
  const documents = programmeDocuments(scale);
  const paths: string[] = [];
  let bytes = 0;
  for (const slot of REVIEW_CONTRACT_SLOTS) {
    const document = documents[slot.key];
    if (document === undefined) continue;
    const path = `${runDir}/${slot.canonicalPath}`;
    const text = JSON.stringify(document);
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
    paths.push(path);
    bytes += Buffer.byteLength(text);
  }
  return { paths, bytes };
}
