import { describe, expect, it } from 'vitest';
import { createGoalLoopTools } from '../../../src/index.js';
import { createMemoryFileSystem } from '../../../src/testing.js';
import { failed } from '../../ports/tools.js';
import { project, RUN } from './project.js';

describe('createGoalLoopTools', () => {
  it('returns evaluate_goal, submit_verdict and loop_status with object JSON Schemas naming their fields', () => {
    const tools = createGoalLoopTools({ fs: createMemoryFileSystem() });
    expect(tools.map((tool) => tool.name)).toEqual(['evaluate_goal', 'submit_verdict', 'loop_status']);
    const [evaluate, submit, status] = tools;
    expect(evaluate.inputJsonSchema).toMatchObject({
      type: 'object',
      required: ['run_dir'],
      additionalProperties: false,
    });
    expect(Object.keys(evaluate.inputJsonSchema.properties as object)).toEqual(['run_dir', 'stages', 'skip_commands']);
    expect(submit.inputJsonSchema).toMatchObject({ required: ['run_dir', 'criterion_id', 'verdict', 'source'] });
    expect(status.inputJsonSchema).toMatchObject({ required: ['run_dir'] });
    for (const tool of tools) {
      expect(tool.outputJsonSchema.type).toBe('object');
      expect(tool.description.length).toBeGreaterThan(40);
    }
  });
});

describe('goal tool arguments', () => {
  it("names a camelCase or misspelt argument of every tool at its own path, with the tool's field it means", async () => {
    const p = project();
    const verdict = { run_dir: RUN, verdict: 'PASS', source: 'human' };
    for (const [tool, raw, key, meant] of [
      [p.evaluate, { run_dir: RUN, skipCommands: true }, 'skipCommands', 'skip_commands'],
      [p.submit, { ...verdict, criterionId: 'design' }, 'criterionId', 'criterion_id'],
      [p.status, { runDir: RUN }, 'runDir', 'run_dir'],
    ] as const) {
      const error = failed<unknown>(await tool.handler(raw));
      const message = `unknown key \`${key}\`; did you mean \`${meant}\`?`;
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain(`$.${key}: ${message}`);
      expect(error.issues).toContainEqual({ code: 'unrecognized_keys', path: [key], message });
    }
  });
});
