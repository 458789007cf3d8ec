import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, call, root, server, useMcpServer } from './mcp-session.js';

// The goal tools of the MCP server example on a run directory: their schemas, an evaluation, a verdict, bad input;
// and the child stopping when the client closes.

const RUN = '.goal-loop/runs/r-mcp';
const GOAL = {
  schema_version: 1,
  goal_id: 'mcp-goal',
  criteria: [
    { id: 'design', kind: 'judge', question: 'Is the design sound?', rerun_stages: ['b'] },
    { id: 'report', kind: 'file_exists', path: 'report.json', run_relative: true, rerun_stages: ['a'] },
  ],
};

useMcpServer(async (project) => {
  await mkdir(join(project, RUN), { recursive: true });
  await writeFile(join(project, RUN, 'goal.json'), JSON.stringify(GOAL));
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

  it('evaluates a run, takes a verdict, and evaluates again: the judge deferred, then RETRY on the missing file only', async () => {
    const first = await call('evaluate_goal', { run_dir: RUN, stages: ['a', 'b'] });
    expect(first.isError).toBe(false);
    // Nothing has run yet: the stages and the file come first, and the judge waits for them.
    expect(first.output).toMatchObject({ goal_id: 'mcp-goal', status: 'RETRY', iteration: null });
    expect(first.output?.deferred_judges).toEqual([expect.objectContaining({ criterion_id: 'design' })]);
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
    expect(second.output?.deferred_judges).toEqual([]);

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

  it('stops the child when the client closes', async () => {
    const pid = server.pid;
    expect(pid).toBeTypeOf('number');
    expect(alive(pid ?? 0)).toBe(true);
    await server.close();
    for (let waited = 0; waited < 100 && alive(pid ?? 0); waited += 1) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid ?? 0)).toBe(false);
  });
});
