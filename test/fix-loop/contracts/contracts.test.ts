import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixAttemptSchema } from '../../../src/fix-loop/contracts/attempt.js';
import { type AuditEntry, auditEntrySchema } from '../../../src/fix-loop/contracts/audit.js';
import {
  candidateFromRecord,
  candidateRecord,
  fixCandidateRecordSchema,
  fixCandidateSchema,
} from '../../../src/fix-loop/contracts/candidate.js';
import { escalationReasonSchema, policyDecisionSchema } from '../../../src/fix-loop/contracts/decision.js';
import { fixSessionStateSchema, MAX_FAILURE_OUTPUT_CHARS } from '../../../src/fix-loop/contracts/session.js';
import { fixSessionStartSchema } from '../../../src/fix-loop/contracts/start.js';
import { buildEscalationReport } from '../../../src/fix-loop/core/escalation.js';
import { createFixSessionState } from '../../../src/fix-loop/core/start.js';
import { attempt, candidate, gapOf, stored } from '../core/fixtures.js';

const entry: AuditEntry = {
  seq: 3,
  step_index: 3,
  action_type: 'test_iteration',
  action_description: 'applied "add the import"',
  candidate_applied: 'add the import',
  gap_before: 2,
  gap_after: 1,
  session_status_after: 'running',
  duration_ms: 41.5,
};

describe('fix-loop contracts', () => {
  it('list the eight escalation reasons', () => {
    expect(escalationReasonSchema.options).toEqual([
      'max_attempts',
      'worsening_trend',
      'all_auto_tried',
      'manual_required',
      'infra_gap',
      'no_progress',
      'wall_time',
      'revert_failed',
    ]);
  });

  it('require a reason on an escalation decision, and only there', () => {
    const base = { rationale: 'because', confidence: 0.5 };
    expect(policyDecisionSchema.safeParse({ ...base, action: 'escalate', reason: 'no_progress' }).success).toBe(true);
    expect(policyDecisionSchema.safeParse({ ...base, action: 'probe' }).success).toBe(true);
    const missing = policyDecisionSchema.safeParse({ ...base, action: 'escalate' });
    expect(missing.success || missing.error.issues[0]?.path).toEqual(['reason']);
    expect(policyDecisionSchema.safeParse({ ...base, action: 'probe', reason: 'wall_time' }).success).toBe(false);
    expect(policyDecisionSchema.safeParse({ ...base, action: 'probe', confidence: 1.01 }).success).toBe(false);
  });

  it('refuse a candidate with an unknown field or a confidence out of [0, 1]', () => {
    const { mutationType: _, ...rest } = candidate('a', 0.5);
    const snake = fixCandidateSchema.safeParse({ ...rest, mutation_type: 'auto' });
    expect(snake.success || snake.error.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['mutationType']),
    );
    expect(fixCandidateSchema.safeParse(candidate('a', 1.2)).success).toBe(false);
    expect(fixCandidateSchema.safeParse({ ...candidate('a', 0), data: { any: ['json', 1, null] } }).success).toBe(true);
  });

  it('store a candidate in snake_case and read it back as the API passes it', () => {
    const full = { ...candidate('a', 0.5, true), patch: '--- a\n', data: { file: 'x.ts' } };
    expect(candidateRecord(full)).toEqual({
      description: 'a',
      confidence: 0.5,
      mutation_type: 'manual',
      patch: '--- a\n',
      data: { file: 'x.ts' },
    });
    expect(candidateFromRecord(candidateRecord(full))).toEqual(full);
    expect(candidateFromRecord(stored('b', 1))).toEqual(candidate('b', 1));
    expect(fixCandidateRecordSchema.safeParse(candidate('a', 0.5)).success).toBe(false);
    expect(fixCandidateRecordSchema.parse(stored('a', 0.5))).toEqual(stored('a', 0.5));
  });

  it('write an audit entry as one JSONL line that reads back', () => {
    const line = JSON.stringify(entry);
    expect(line).not.toContain('\n');
    expect(auditEntrySchema.parse(JSON.parse(line))).toEqual(entry);
    expect(
      auditEntrySchema.parse({ ...entry, candidate_applied: null, gap_after: null, interrupted: true }),
    ).toBeTruthy();
    expect(auditEntrySchema.safeParse({ ...entry, session_status_after: 'done' }).success).toBe(false);
  });

  it('hold an attempt with its outcome and gaps', () => {
    expect(fixAttemptSchema.parse(attempt(0, 3, null))).toMatchObject({ outcome: 'interrupted', gap_after: null });
    expect(fixAttemptSchema.safeParse({ ...attempt(0, 3, 2), action: 'probe' }).success).toBe(false);
  });

  it('refuse a start with an unknown field, or with neither a build nor a test command', () => {
    const start = { goal: 'g', goalType: 't', workspace: 'w', buildCommand: 'tsc' };
    expect(fixSessionStartSchema.parse(start).maxAttempts).toBe(5);
    expect(fixSessionStartSchema.safeParse({ ...start, max_attempts: 3 }).success).toBe(false);
    expect(fixSessionStartSchema.safeParse({ ...start, buildCommand: undefined }).error?.issues).toMatchObject([
      { path: ['testCommand'], message: 'at least one of the build and test commands is required' },
    ]);
  });

  it('round-trip a session record through JSON, escalated with attempts and a step in progress', () => {
    const fresh = createFixSessionState({
      sessionId: 'fix-1',
      start: { goal: 'g', goalType: 'tests', workspace: 'w', maxAttempts: 3 },
      ts: '2026-12-01T06:00:00.000Z',
    });
    const state = {
      ...fresh,
      status: 'escalated' as const,
      environment_verified: true,
      gap: gapOf(0, 1),
      attempts: [attempt(0, 2, 1), attempt(1, 1, 1)],
      tried: ['h0', 'h1'],
      step_count: 4,
      step_in_progress: { step_index: 4, action: 'test_iteration' as const, candidate_hash: 'h2' },
      outbox: [entry],
    };
    const escalated = {
      ...state,
      escalation: buildEscalationReport(state, 'no_progress', [stored('m', 0.3, true)]),
    };
    expect(fixSessionStateSchema.parse(JSON.parse(JSON.stringify(escalated)))).toEqual(escalated);
  });

  it('convert to JSON Schema, as tool descriptions and shipped schemas need', () => {
    const schemas = [
      fixSessionStartSchema,
      fixSessionStateSchema,
      auditEntrySchema,
      policyDecisionSchema,
      fixCandidateSchema,
      fixCandidateRecordSchema,
    ];
    for (const schema of schemas) {
      const json = z.toJSONSchema(schema, { io: 'input' });
      expect(json).toMatchObject({ type: 'object', additionalProperties: false });
    }
    expect(z.toJSONSchema(fixSessionStartSchema, { io: 'input' })).toMatchObject({
      required: ['goal', 'goalType', 'workspace'],
    });
  });

  it('refuse a session record whose failure output is not bounded', () => {
    const state = createFixSessionState({
      sessionId: 's',
      start: { goal: 'g', goalType: 't', workspace: 'w', maxAttempts: 1 },
      ts: 't',
    });
    const long = { ...state, last_failure_output: 'x'.repeat(MAX_FAILURE_OUTPUT_CHARS + 1) };
    expect(fixSessionStateSchema.safeParse(long).success).toBe(false);
  });
});
