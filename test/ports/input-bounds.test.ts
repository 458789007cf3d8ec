import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFixLoopTools } from '../../src/fix-loop/tools/fix-loop-tools.js';
import { createGoalLoopTools } from '../../src/index.js';
import { DEFAULT_MAX_TEXT_CHARS, inputBoundIssue, MAX_PATH_CHARS } from '../../src/ports/input-bounds.js';
import { createMemoryFileSystem } from '../../src/testing.js';

// Bounds on tool inputs, checked before any schema or path check reads them.

describe('inputBoundIssue', () => {
  it('passes any JSON whose strings keep the bound, and names the path of one that does not', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.nat(3), (value, pick) => {
        expect(inputBoundIssue(value, 1_000)).toBeNull();
        const path = ['a', pick, 'b'];
        const long = { a: [0, 1, 2, 3].map((i) => (i === pick ? { b: 'x'.repeat(1_001) } : value)) };
        expect(inputBoundIssue(long, 1_000)).toEqual({
          code: 'too_big',
          path,
          message: 'at most 1000 characters are accepted here (got 1001)',
        });
      }),
      { numRuns: 50 },
    );
  });

  it('refuses an input of more than 100 000 values, and one nested 200 000 deep, without recursion', () => {
    expect(inputBoundIssue({ list: Array.from({ length: 100_001 }, () => 0) }, 10)?.message).toMatch(/100000 values/);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(inputBoundIssue(deep, 10)?.code).toBe('too_big');
  });
});

describe('tool inputs with length limits', () => {
  const fs = createMemoryFileSystem();
  const [evaluate, submit, status] = createGoalLoopTools({ fs });

  it('refuses a 1 MB run_dir of short segments at once, naming the limit', async () => {
    const result = await status.handler({ run_dir: 'a/'.repeat(500_000) });
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'invalid_input', issues: [{ path: ['run_dir'], code: 'too_big' }] },
    });
    expect(JSON.stringify(result)).toContain(`at most ${DEFAULT_MAX_TEXT_CHARS} characters`);
    const long = await evaluate.handler({ run_dir: 'a/'.repeat(MAX_PATH_CHARS) });
    expect(JSON.stringify(long)).toContain(String(MAX_PATH_CHARS));
  });

  it('refuses 5 MB of reasoning and of goal, naming the field', async () => {
    const huge = 'x'.repeat(5_000_000);
    const verdict = await submit.handler({
      run_dir: 'r',
      criterion_id: 'c',
      verdict: 'PASS',
      source: 'human',
      reasoning: huge,
    });
    expect(verdict).toMatchObject({ isError: true, error: { issues: [{ path: ['reasoning'], code: 'too_big' }] } });
    const orchestrator = {
      start: async () => ({}),
      step: async () => ({}),
      runToCompletion: async () => ({}),
      get: async () => ({}),
    };
    const [start, step] = createFixLoopTools(orchestrator as never);
    const goal = await start.handler({ goal: huge, goal_type: 't', workspace: 'ws', test_command: 'npm test' });
    expect(goal).toMatchObject({ isError: true, error: { issues: [{ path: ['goal'], code: 'too_big' }] } });
    const id = await step.handler({ session_id: 's'.repeat(129) });
    expect(id).toMatchObject({ isError: true, error: { issues: [{ path: ['session_id'] }] } });
  });
});
