// The fast validation path accepts exactly what zod accepts, and only values zod returns unchanged, so reading the input in place is reading zod's output.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { FastCheck } from '../../../src/kit/zod-fast-path.js';
import {
  codeFileSchema,
  codeReportSchema,
  isCanonicalCodeFile,
  isCanonicalCodeReport,
} from '../../../src/review/contracts/code-report.js';
import {
  deploymentReportSchema,
  isCanonicalDeploymentReport,
} from '../../../src/review/contracts/deployment-report.js';
import { documentationSchema, isCanonicalDocumentation } from '../../../src/review/contracts/documentation.js';
import {
  isCanonicalJiraTickets,
  isCanonicalStory,
  jiraTicketsSchema,
  userStorySchema,
} from '../../../src/review/contracts/jira-tickets.js';
import { isMetadataOnly, metadataOnlySchema, readWith } from '../../../src/review/contracts/metadata.js';
import { isCanonicalPlan, planSchema } from '../../../src/review/contracts/plan.js';
import {
  isCanonicalRequirement,
  isCanonicalRequirementSpec,
  requirementSchema,
  requirementSpecSchema,
} from '../../../src/review/contracts/requirement-spec.js';
import { isCanonicalSystemDesign, systemDesignSchema } from '../../../src/review/contracts/system-design.js';
import {
  isCanonicalTestCase,
  isCanonicalTestReport,
  testCaseSchema,
  testReportSchema,
} from '../../../src/review/contracts/test-report.js';
import { isCanonicalThreatModel, threatModelSchema } from '../../../src/review/contracts/threat-model.js';
import { cleanRun } from '../fixtures.js';

// Values that sit on every boundary the schemas draw: types, empty strings, lone surrogates, negatives, non-finite numbers.
const leaf = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    true,
    0,
    -1,
    3,
    2.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'x',
    '\uD800',
    'FR-001',
    'US-001',
    'Sprint 2',
    // Ids at and past MAX_ID_LENGTH.
    'I'.repeat(256),
    'I'.repeat(257),
  ),
  fc.constantFrom('functional', 'non_functional', 'passed', 'failed', 'skipped', 'CRITICAL', 'HIGH', 'BRD'),
  fc.string({ maxLength: 3 }),
);
const value = fc.oneof(
  { arbitrary: leaf, weight: 4 },
  { arbitrary: fc.array(leaf, { maxLength: 3 }), weight: 2 },
  { arbitrary: fc.sparseArray(leaf, { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.constantFrom('name', 'id', 'path'), leaf, { maxKeys: 2 }), weight: 1 },
);

// A valid item with one field replaced or removed (mostly), several fields changed, or any value at all.
function mutated(valid: Record<string, unknown>, keys: readonly string[]): fc.Arbitrary<unknown> {
  const fields = [...keys, 'extra'];
  const without = (item: Record<string, unknown>, removed: readonly string[]): Record<string, unknown> =>
    Object.fromEntries(Object.entries(item).filter(([key]) => !removed.includes(key)));
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...fields), value)
        .map(([key, replacement]) => ({ ...valid, [key]: replacement })),
      weight: 4,
    },
    { arbitrary: fc.constantFrom(...fields).map((key) => without(valid, [key])), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 3 }), fc.subarray(fields, { maxLength: 2 }))
        .map(([replaced, removed]) => without({ ...valid, ...replaced }, removed)),
      weight: 2,
    },
    { arbitrary: value, weight: 1 },
  );
}

// True when some object in a JSON value has an own `__proto__` key.
function hasOwnProto(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some(hasOwnProto);
}

// Asserts the fast path's promise on one value: it accepts exactly what zod accepts, and zod outputs an equal value for it (prototypes aside).
function expectEquivalent(schema: z.ZodType, fast: FastCheck, input: unknown): void {
  const parsed = schema.safeParse(input);
  expect(fast(input)).toBe(parsed.success);
  if (parsed.success) expect(parsed.data).toEqual(input);
}

const items: [string, z.ZodType, Record<string, unknown>, FastCheck][] = [
  [
    'requirement',
    requirementSchema,
    {
      id: 'FR-001',
      type: 'functional',
      category: 'security',
      title: 'Sign in',
      priority: 'must',
      acceptance: ['a'],
      source: 'x',
    },
    isCanonicalRequirement,
  ],
  [
    'user story',
    userStorySchema,
    {
      story_id: 'US-001',
      title: 't',
      linked_requirements: ['FR-001'],
      story_points: 3,
      sprint: 1,
      assignee: 'ana',
      blocked_by: ['US-002'],
      source: 'x',
    },
    isCanonicalStory,
  ],
  [
    'code file',
    codeFileSchema,
    {
      path: 'src/a.ts',
      implements: ['US-001'],
      service: 'auth',
      endpoints: ['GET /a'],
      tables: ['users'],
      mitigates: ['THR-001'],
      source: 'x',
    },
    isCanonicalCodeFile,
  ],
  [
    'test case',
    testCaseSchema,
    {
      id: 'TC-001',
      story_ids: ['US-001'],
      requirement_ids: ['FR-001'],
      controls: ['SC-001'],
      status: 'passed',
      source: 'x',
    },
    isCanonicalTestCase,
  ],
];

const run = cleanRun();
const documents: [string, z.ZodType, Record<string, unknown>, FastCheck][] = [
  ['requirement_spec', requirementSpecSchema, run.requirement_spec, isCanonicalRequirementSpec],
  ['jira_tickets', jiraTicketsSchema, run.jira_tickets, isCanonicalJiraTickets],
  ['code_report', codeReportSchema, run.code_report, isCanonicalCodeReport],
  ['test_report', testReportSchema, run.test_report, isCanonicalTestReport],
  ['documentation', documentationSchema, run.documentation, isCanonicalDocumentation],
  ['plan', planSchema, run.plan, isCanonicalPlan],
  ['system_design', systemDesignSchema, run.system_design, isCanonicalSystemDesign],
  ['deployment_report', deploymentReportSchema, run.deployment_report, isCanonicalDeploymentReport],
  ['threat_model', threatModelSchema, run.threat_model, isCanonicalThreatModel],
  ['summary (metadata only)', metadataOnlySchema, run.summary, isMetadataOnly],
];

describe('fast validation path', () => {
  it.each(items)('the %s predicate accepts exactly what its zod schema accepts', (_name, schema, valid, fast) => {
    expect(fast(valid)).toBe(true);
    fc.assert(
      fc.property(mutated(valid, Object.keys(valid)), (input) => expectEquivalent(schema, fast, input)),
      { numRuns: 2000 },
    );
  });

  it.each(documents)(
    'the %s predicate accepts the clean run and exactly what its zod schema accepts of its mutations',
    (_name, schema, document, fast) => {
      expect(fast(document)).toBe(true);
      fc.assert(
        fc.property(mutated(document, Object.keys(document)), (input) => expectEquivalent(schema, fast, input)),
        { numRuns: 300 },
      );
    },
  );

  const threat = { id: 'THR-001', risk_level: 'HIGH', affected_component: 'auth', mitigation: 'rate limit' };
  const nested: [string, z.ZodType, FastCheck, Record<string, unknown>, (item: unknown) => unknown][] = [
    [
      'requirement',
      requirementSpecSchema,
      isCanonicalRequirementSpec,
      items[0]?.[2] ?? {},
      (item) => ({ ...run.requirement_spec, requirements: [item] }),
    ],
    [
      'user story',
      jiraTicketsSchema,
      isCanonicalJiraTickets,
      items[1]?.[2] ?? {},
      (item) => ({ ...run.jira_tickets, epics: [{ epic_id: 'E-1', user_stories: [item] }] }),
    ],
    [
      'epic',
      jiraTicketsSchema,
      isCanonicalJiraTickets,
      { epic_id: 'E-1', epic_name: 'n', user_stories: [] },
      (item) => ({ ...run.jira_tickets, epics: [item] }),
    ],
    [
      'code file',
      codeReportSchema,
      isCanonicalCodeReport,
      items[2]?.[2] ?? {},
      (item) => ({ ...run.code_report, files: [item] }),
    ],
    [
      'test case',
      testReportSchema,
      isCanonicalTestReport,
      items[3]?.[2] ?? {},
      (item) => ({ ...run.test_report, test_cases: [item] }),
    ],
    [
      'document',
      documentationSchema,
      isCanonicalDocumentation,
      { type: 'BRD', path: 'docs/BRD.md', covers: ['FR-001'] },
      (item) => ({ ...run.documentation, documents: [item] }),
    ],
    [
      'sprint',
      planSchema,
      isCanonicalPlan,
      { sprint: 1, capacity_points: 16 },
      (item) => ({ ...run.plan, sprints: [item] }),
    ],
    [
      'milestone',
      planSchema,
      isCanonicalPlan,
      { id: 'M1', name: 'MVP' },
      (item) => ({ ...run.plan, milestones: [item] }),
    ],
    [
      'service',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { name: 'auth' },
      (item) => ({ ...run.system_design, services: [item] }),
    ],
    [
      'endpoint',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { method: 'POST', path: '/login', service: 'auth' },
      (item) => ({ ...run.system_design, api_endpoints: [item] }),
    ],
    [
      'database',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { tables: ['users', { name: 'roles' }] },
      (item) => ({ ...run.system_design, database: item }),
    ],
    [
      'table',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { name: 'users' },
      (item) => ({ ...run.system_design, database: { tables: [item] } }),
    ],
    [
      'security control',
      systemDesignSchema,
      isCanonicalSystemDesign,
      { id: 'SC-001', description: 'bcrypt', nfr_ids: ['NFR-001'] },
      (item) => ({ ...run.system_design, security_controls: [item] }),
    ],
    [
      'environment',
      deploymentReportSchema,
      isCanonicalDeploymentReport,
      { name: 'production' },
      (item) => ({ ...run.deployment_report, environments: [item] }),
    ],
    ['threat', threatModelSchema, isCanonicalThreatModel, threat, (item) => ({ ...run.threat_model, threats: [item] })],
    [
      'mitigation',
      threatModelSchema,
      isCanonicalThreatModel,
      { description: 'd', implementation_location: 'src/a.ts' },
      (item) => ({ ...run.threat_model, threats: [{ ...threat, mitigation: item }] }),
    ],
  ];

  it.each(nested)(
    'a mutated %s is accepted in its document exactly when zod accepts the document',
    (_name, schema, fast, valid, wrap) => {
      expect(fast(wrap(valid))).toBe(true);
      fc.assert(
        fc.property(mutated(valid, Object.keys(valid)), (item) => expectEquivalent(schema, fast, wrap(item))),
        { numRuns: 500 },
      );
    },
  );

  it('leaves an object with an own __proto__ key (which zod drops) to zod, at the top and in the item predicates', () => {
    const summary = JSON.parse('{"__proto__":0,"status":"PASS"}') as unknown;
    expect(isMetadataOnly(summary)).toBe(false);
    expect(readWith(metadataOnlySchema, summary, (parsed) => parsed, isMetadataOnly)).toMatchObject({ ok: true });
    for (const [, , valid, fast] of items) {
      const item = JSON.parse(`{"__proto__":{},${JSON.stringify(valid).slice(1)}`) as unknown;
      expect(fast(item)).toBe(false);
    }
  });

  it('any JSON value a document predicate accepts, zod accepts unchanged', () => {
    fc.assert(
      // A value with an own `__proto__` key is left to zod on purpose (the test above): fc.jsonValue() can make one.
      fc.property(fc.constantFrom(...documents), fc.jsonValue(), ([, schema, , fast], input) => {
        fc.pre(!hasOwnProto(input));
        expectEquivalent(schema, fast, input);
      }),
      { numRuns: 500 },
    );
  });

  it('uses a predicate only where it is passed; a predicate that rejects leaves the value to zod, which still decides', () => {
    const spec = run.requirement_spec;
    const rejectAll: FastCheck = () => false;
    const read = (fast?: FastCheck) => readWith(requirementSpecSchema, spec, (parsed) => parsed, fast);
    expect(read()).toEqual({ ok: true, value: spec });
    expect(read(rejectAll)).toEqual({ ok: true, value: spec });
    expect(read(isCanonicalRequirementSpec)).toEqual({ ok: true, value: spec });
    expect(
      readWith(
        requirementSpecSchema,
        { requirements: [{ id: '', type: 'functional', title: 't' }] },
        (parsed) => parsed,
        rejectAll,
      ),
    ).toMatchObject({
      ok: false,
      issues: [{ path: ['requirements', 0, 'id'] }],
    });
  });

  it('reads a value the predicate accepts in place, without a copy', () => {
    const spec = run.requirement_spec;
    const read = readWith(requirementSpecSchema, spec, (parsed) => parsed, isCanonicalRequirementSpec);
    expect(read.ok && read.value).toBe(spec);
  });
});
