import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_COMMAND, createSlugifyWorkspace, TEST_COMMAND } from '../../examples/fix-loop/workspace.js';
import { call, root, server, useMcpServer } from './mcp-session.js';

// The fix tools of the MCP server example on real workspaces: git repositories of a small package whose `node --test`
// tests fail, fixed by real `git apply` of the example rule table's diffs.

useMcpServer(
  async (project) => {
    await createSlugifyWorkspace(project, 'slugify');
    await createSlugifyWorkspace(project, 'slugify-non-latin', ['non-latin']);
  },
  ['--allow-command', BUILD_COMMAND, '--allow-command', TEST_COMMAND],
);

// The start input of a session on one of the workspaces.
const fixSession = (workspace: string) => ({
  goal: 'slugify passes its tests',
  goal_type: 'tests_pass',
  workspace,
  build_command: BUILD_COMMAND,
  test_command: TEST_COMMAND,
  test_report: { format: 'junit', path: 'report.xml' },
  max_attempts: 5,
});

describe('the MCP server example', () => {
  it('lists the fix tools with the seed input names', async () => {
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(tools).toHaveLength(7);
    expect(byName.get('start_feedback_loop')?.inputSchema).toMatchObject({
      type: 'object',
      required: ['goal', 'goal_type', 'workspace'],
      additionalProperties: false,
    });
    expect(Object.keys(byName.get('start_feedback_loop')?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['goal', 'goal_type', 'workspace', 'build_command', 'test_command', 'max_attempts']),
    );
    expect(byName.get('step_feedback_loop')?.inputSchema.required).toEqual(['session_id']);
    expect(Object.keys(byName.get('run_feedback_loop')?.inputSchema.properties ?? {})).toEqual([
      'session_id',
      'max_wall_seconds',
      'include_audit',
    ]);
    expect(byName.get('get_feedback_loop')?.inputSchema.required).toEqual(['session_id']);
  });

  it('starts a fix session on a real workspace, steps it, runs it to convergence, and reads its audit log', async () => {
    const started = await call('start_feedback_loop', fixSession('slugify'));
    expect(started.output).toMatchObject({ status: 'pending' });
    const session_id = started.output?.session_id as string;

    const probe = await call('step_feedback_loop', { session_id });
    expect(probe.output).toMatchObject({ action_taken: 'probe', session_status: 'running' });
    const measure = await call('step_feedback_loop', { session_id });
    expect(measure.output).toMatchObject({ action_taken: 'measure', gap: { gap: 2, tests: { failed: 2, total: 4 } } });
    const iteration = await call('step_feedback_loop', { session_id });
    // The rule table's first fix is plausible and wrong: it leaves the gap as it was, so it is reverted.
    expect(iteration.output).toMatchObject({ action_taken: 'test_iteration', attempt: { outcome: 'reverted' } });
    expect(iteration.output?.candidates?.length).toBeGreaterThan(1);

    const run = await call('run_feedback_loop', { session_id, max_wall_seconds: 120, include_audit: true });
    expect(run.output).toMatchObject({ session_id, final_status: 'converged', final_gap: { gap: 0 } });
    expect(run.output?.steps_taken).toBeGreaterThan(0);
    expect(run.output?.escalation_files).toBeUndefined();
    const audit = run.output?.audit_log as { action_type: string; candidate_applied: string | null }[];
    expect(audit.map((entry) => entry.action_type).slice(0, 3)).toEqual(['probe', 'measure', 'test_iteration']);
    expect(audit.at(-1)).toMatchObject({ session_status_after: 'converged', gap_after: 0 });
    const fixed = await readFile(join(root, 'slugify', 'src', 'slugify.js'), 'utf8');
    expect(fixed).toContain(".replace(/^-+|-+$/g, '')");
    expect(fixed).toContain("normalize('NFKD')");
    expect(fixed).not.toContain('.trim()');

    const view = await call('get_feedback_loop', { session_id, audit_tail: 2 });
    expect(view.output).toMatchObject({ status: 'converged', gap: { gap: 0 }, escalation: null });
    expect(view.output?.audit_tail).toEqual(audit.slice(-2));
    const logged = (await readFile(join(root, '.goal-loop/fix-sessions', session_id, 'audit.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n');
    expect(logged).toHaveLength(audit.length);

    const again = await call('step_feedback_loop', { session_id });
    expect(again.isError).toBe(true);
    expect(again.json).toMatchObject({ error: { code: 'invalid_state' } });
  }, 180_000);

  it('escalates a session whose last failure only a human can fix, with the report', async () => {
    const started = await call('start_feedback_loop', fixSession('slugify-non-latin'));
    const session_id = started.output?.session_id as string;
    const run = await call('run_feedback_loop', { session_id, max_wall_seconds: 120 });
    const files = {
      json: `.goal-loop/fix-sessions/${session_id}/escalation.json`,
      markdown: `.goal-loop/fix-sessions/${session_id}/escalation.md`,
    };
    expect(run.output).toMatchObject({
      final_status: 'escalated',
      escalation: { session_id, escalation_reason: 'manual_required', goal: 'slugify passes its tests' },
      escalation_files: files,
    });
    expect(JSON.parse(await readFile(join(root, files.json), 'utf8'))).toEqual(run.output?.escalation);
    expect(run.output?.audit_log).toBeUndefined();
    const report = run.output?.escalation as { top_remaining_candidates: { mutation_type: string }[] };
    expect(report.top_remaining_candidates[0]?.mutation_type).toBe('manual');
    expect((await call('get_feedback_loop', { session_id })).output).toMatchObject({
      status: 'escalated',
      escalation: { escalation_reason: 'manual_required' },
      escalation_files: files,
    });
  }, 180_000);

  it('answers an unknown session and a bad start with tool errors naming the path', async () => {
    expect((await call('get_feedback_loop', { session_id: 'fix-none' })).json).toMatchObject({
      error: { code: 'not_found' },
    });
    const bad = await call('start_feedback_loop', {
      goal: 'g',
      goal_type: 't',
      workspace: '../out',
      test_command: TEST_COMMAND,
    });
    expect(bad.json).toMatchObject({ error: { code: 'invalid_input', issues: [{ path: ['workspace'] }] } });
  });
});
