import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_COMMAND, createSlugifyWorkspace, TEST_COMMAND } from '../../examples/fix-loop/workspace.js';
import { connectToServer, type ServerConnection } from '../../examples/mcp-server/client.js';

// The MCP server example as a child process, driven by the SDK's own Client over stdio: the tools it lists with
// their schemas, and each tool called the way an agent host calls it — the goal tools on a run directory, the fix
// tools on real workspaces (git repositories of a small package whose `node --test` tests fail, fixed by real
// `git apply` of the example rule table's diffs). The Client itself checks every structuredContent against the
// tool's output schema.

const RUN = '.goal-loop/runs/r-mcp';
const GOAL = {
  schema_version: 1,
  goal_id: 'mcp-goal',
  criteria: [
    { id: 'design', kind: 'judge', question: 'Is the design sound?', rerun_stages: ['b'] },
    { id: 'report', kind: 'file_exists', path: 'report.json', run_relative: true, rerun_stages: ['a'] },
  ],
};

let root: string;
let server: ServerConnection;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-mcp-test-'));
  await mkdir(join(root, RUN), { recursive: true });
  await writeFile(join(root, RUN, 'goal.json'), JSON.stringify(GOAL));
  await createSlugifyWorkspace(root, 'slugify');
  await createSlugifyWorkspace(root, 'slugify-non-latin', ['non-latin']);
  server = await connectToServer(root);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

// True while a process with this id runs.
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Calls a tool; the structured output of a success, or the parsed error of a tool error. A fix run takes a few
// test runs, so the request may take longer than the Client's default minute.
// biome-ignore lint/suspicious/noExplicitAny: structured outputs are read field by field, checked by toMatchObject.
type Output = Record<string, any>;
async function call(name: string, args: Record<string, unknown>) {
  const result = (await server.client.callTool({ name, arguments: args }, undefined, {
    timeout: 180_000,
  })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return {
    isError: result.isError === true,
    output: result.structuredContent as Output | undefined,
    json: JSON.parse(text) as unknown,
  };
}

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
  it('lists the goal tools with object input schemas that name their fields and refuse unknown ones', async () => {
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['evaluate_goal', 'submit_verdict', 'loop_status']));
    expect(byName.get('evaluate_goal')?.inputSchema).toMatchObject({
      type: 'object',
      required: ['run_dir'],
      additionalProperties: false,
    });
    expect(byName.get('submit_verdict')?.inputSchema.required).toEqual([
      'run_dir',
      'criterion_id',
      'verdict',
      'source',
    ]);
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(40);
    }
  });

  it('evaluates a run, takes a verdict, and evaluates again: ASK_USER, then RETRY on the missing file only', async () => {
    const first = await call('evaluate_goal', { run_dir: RUN, stages: ['a', 'b'] });
    expect(first.isError).toBe(false);
    expect(first.output).toMatchObject({ goal_id: 'mcp-goal', status: 'ASK_USER', iteration: null });
    expect(first.json).toEqual(first.output);

    const verdict = await call('submit_verdict', {
      run_dir: RUN,
      criterion_id: 'design',
      verdict: 'PASS',
      source: 'agent',
      judge: 'reviewer',
      reasoning: 'Two layers, no cycle.',
    });
    expect(verdict.output).toMatchObject({ judge: 'agent:reviewer', iteration: 1 });
    const written = JSON.parse(await readFile(join(root, RUN, 'goal-verdict.json'), 'utf8')) as unknown;
    expect(written).toMatchObject({ verdicts: [{ criterion_id: 'design', verdict: 'PASS', judge: 'agent:reviewer' }] });

    const second = await call('evaluate_goal', { run_dir: RUN, stages: ['a', 'b'] });
    const failing = ((second.output?.failing_criteria ?? []) as { id: string }[]).map((check) => check.id);
    expect(failing).toEqual(['report', 'stage:a', 'stage:b']);
    expect(second.output?.status).toBe('RETRY');

    expect((await call('loop_status', { run_dir: RUN })).output).toMatchObject({
      state: 'not_started',
      iteration: 0,
      last_decision: null,
    });
  });

  it('answers bad input with a tool error naming the JSON path, and an unknown tool with a protocol error', async () => {
    const bad = await call('submit_verdict', {
      run_dir: RUN,
      criterion_id: 'design',
      verdict: 'MAYBE',
      source: 'agent',
    });
    expect(bad.isError).toBe(true);
    expect(bad.output).toBeUndefined();
    expect(bad.json).toMatchObject({ error: { code: 'invalid_input' } });
    const message = (bad.json as { error: { message: string } }).error.message;
    expect(message).toContain('$.verdict');
    expect(message).toContain('$.reasoning');
    await expect(server.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

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
    expect(iteration.output).toMatchObject({ action_taken: 'test_iteration', attempt: { outcome: 'applied' } });
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
      test_command: 'npm test',
    });
    expect(bad.json).toMatchObject({ error: { code: 'invalid_input', issues: [{ path: ['workspace'] }] } });
  });

  it('stops the child when the client closes', async () => {
    const pid = server.pid;
    expect(pid).toBeTypeOf('number');
    expect(alive(pid ?? 0)).toBe(true);
    await server.close();
    for (let waited = 0; waited < 100 && alive(pid ?? 0); waited += 1) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid ?? 0)).toBe(false);
  });
});
