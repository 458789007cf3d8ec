import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSumWorkspace, returning, SUM } from '../fix-loop/sum-workspace.js';
import { call, root, server, useMcpServer } from './mcp-session.js';

// The MCP server example with the calling agent as the source of fixes (--candidates agent), driven by the SDK's
// Client over stdio, on a workspace the server knows nothing about: the client reads the failure from the step
// results and proposes diffs; only the commands the server was started with run.

const TEST_COMMAND = 'node --test sum.test.js';
const WRONG = {
  description: 'Absolute difference',
  confidence: 0.9,
  mutation_type: 'auto',
  patch: returning('return Math.abs(a - b);'),
};
const RIGHT = {
  description: 'Add instead of subtract',
  confidence: 0.8,
  mutation_type: 'auto',
  patch: returning('return a + b;'),
};

useMcpServer(
  async (project) => {
    await makeSumWorkspace(project);
  },
  ['--candidates', 'agent', '--allow-command', TEST_COMMAND],
);

const start = { goal: 'the tests pass', goal_type: 'tests', workspace: 'pkg', test_command: TEST_COMMAND };

describe('the MCP server example with agent candidates', () => {
  it('lists every tool with a title and its annotations, and says where fixes come from', async () => {
    const { tools } = await server.client.listTools();
    const hints = Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        [
          tool.title,
          tool.annotations?.readOnlyHint,
          tool.annotations?.destructiveHint,
          tool.annotations?.idempotentHint,
          tool.annotations?.openWorldHint,
        ],
      ]),
    );
    expect(hints).toEqual({
      evaluate_goal: ["Evaluate a run's goal", true, false, true, false],
      submit_verdict: ['Submit a judge verdict', false, true, true, false],
      loop_status: ["Read a run's loop status", true, false, true, false],
      start_feedback_loop: ['Start a fix session', false, false, false, false],
      step_feedback_loop: ['Step a fix session', false, true, false, false],
      run_feedback_loop: ['Run a fix session to the end', false, true, false, false],
      get_feedback_loop: ['Read a fix session', true, false, true, false],
    });
    const step = tools.find((tool) => tool.name === 'step_feedback_loop');
    expect(step?.description).toMatch(/Fixes come from you, the caller/);
  });

  it('asks for candidates without spending an attempt, then converges on the diff the client proposes', async () => {
    const started = await call('start_feedback_loop', start);
    const session_id = started.output?.session_id as string;
    expect((await call('step_feedback_loop', { session_id })).output).toMatchObject({ action_taken: 'probe' });
    const measured = await call('step_feedback_loop', { session_id });
    expect(measured.output).toMatchObject({
      action_taken: 'measure',
      gap: { gap: 1 },
      needs_fix: { failing_tests: ['adds'], attempts: [] },
    });
    expect(measured.output?.needs_fix.output_tail).toContain('not ok 1 - adds');

    const asked = await call('step_feedback_loop', { session_id });
    expect(asked.output).toMatchObject({
      needs_candidates: true,
      action_taken: 'test_iteration',
      needs_fix: { failing_tests: ['adds'] },
    });
    expect((await call('get_feedback_loop', { session_id })).output).toMatchObject({ attempts_made: 0 });

    // The plausible wrong diff ranks first; it leaves the gap at 1, so it is reverted and the right one still applies.
    const wrong = await call('step_feedback_loop', { session_id, candidates: [WRONG, RIGHT] });
    expect(wrong.output).toMatchObject({ session_status: 'running', attempt: { outcome: 'reverted', gap_after: 1 } });
    expect(wrong.output?.needs_fix.attempts).toHaveLength(1);
    const right = await call('step_feedback_loop', { session_id, candidates: [WRONG, RIGHT] });
    expect(right.output).toMatchObject({ session_status: 'converged', attempt: { outcome: 'applied', gap_after: 0 } });
    expect(await readFile(join(root, 'pkg/sum.js'), 'utf8')).toBe(SUM.replace('a - b', 'a + b'));
  }, 180_000);

  it('runs only the commands it was started with, and leaves run_feedback_loop to the step-by-step caller', async () => {
    const refused = await call('start_feedback_loop', { ...start, test_command: 'rm -rf /' });
    expect(refused.json).toMatchObject({
      error: { code: 'invalid_input', issues: [{ path: ['test_command'], code: 'command_not_allowed' }] },
    });
    expect(JSON.stringify(refused.json)).toContain('allowed in workspace \\"pkg\\": \\"node --test sum.test.js\\"');
    const started = await call('start_feedback_loop', start);
    const ran = await call('run_feedback_loop', { session_id: started.output?.session_id });
    expect(ran.json).toMatchObject({ error: { code: 'invalid_state' } });
  });
});
