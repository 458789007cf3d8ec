// Public functions handed values a host should not pass (null, a throwing getter, a revoked proxy) refuse them with a
// GoalLoopError naming where, or an issue: never a raw TypeError from inside.
import { describe, expect, it } from 'vitest';
import { computeCriticMetrics } from '../src/critics/core/metrics.js';
import { parseGoal } from '../src/goal/parse-goal.js';
import { writeVerdict } from '../src/goal/verdict-writer.js';
import { reviewPipeline } from '../src/review/core/review-pipeline.js';
import { createMemoryFileSystem } from '../src/testing/memory-file-system.js';
import { ThrowingGoal, trapProxy } from './kit/hostile-values.js';

const throwing = (key: string) =>
  Object.defineProperty({ schema_version: 1 }, key, {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

describe('hostile arguments', () => {
  it.each([
    ['a throwing getter', throwing('criteria')],
    ['a revoked proxy', revoked()],
  ])('parseGoal on %s is one unreadable issue at $', (_, value) => {
    const result = parseGoal(value);
    expect(result).toMatchObject({ success: false, issues: [{ code: 'unreadable', path: [] }] });
    expect(result.issues[0]?.message).toMatch(/^reading the goal threw \((Error: boom|TypeError: .*revoked.*)\)$/);
  });

  it('parseGoal refuses a class instance at its path and never calls a proxy trap for keys the value does not list', () => {
    const trap = trapProxy();
    expect(parseGoal(trap)).toMatchObject({ success: false, issues: [{ path: ['schema_version'] }] });
    expect(parseGoal({ schema_version: 1, criteria: [new ThrowingGoal()] })).toEqual({
      success: false,
      issues: [{ code: 'invalid_type', path: ['criteria', 0], message: 'a ThrowingGoal is not JSON' }],
    });
  });

  it('writeVerdict with an option whose getter throws is INVALID_OPTIONS, nothing written', async () => {
    const fs = createMemoryFileSystem();
    const options = Object.defineProperty({ fs, runDir: 'r', criterionId: 'c', verdict: 'PASS' }, 'judge', {
      enumerable: true,
      get() {
        throw new Error('getter boom');
      },
    });
    await expect(writeVerdict(options as never)).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      issues: [{ code: 'unreadable', path: [], message: 'reading the options threw (Error: getter boom)' }],
    });
    expect(await fs.list('r')).toBeNull();
  });

  it('reviewPipeline refuses contracts or options that are not objects, naming each', () => {
    expect(() => reviewPipeline(null as never, null as never)).toThrow(
      'Invalid reviewPipeline options: $.contracts: expected an object: the contract inputs by key; $.options: expected an object: the review options, with a timestamp',
    );
    expect(() => reviewPipeline([] as never, { timestamp: 't' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it('reviewPipeline and computeCriticMetrics refuse arguments whose reading throws', () => {
    expect(() => reviewPipeline(revoked() as never, { timestamp: 't' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', issues: [expect.objectContaining({ path: ['contracts'] })] }),
    );
    expect(() => reviewPipeline({}, throwing('timestamp') as never)).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ code: 'unreadable', path: ['options'] })] }),
    );
    // The options are read once: a getter that would throw on a second read is not read again.
    let reads = 0;
    const once = Object.defineProperty({}, 'timestamp', {
      enumerable: true,
      get() {
        reads += 1;
        if (reads > 1) throw new Error('read twice');
        return '2025-01-31T12:00:00.000Z';
      },
    });
    expect(reviewPipeline({}, once as never).timestamp).toBe('2025-01-31T12:00:00.000Z');
    const trace = Object.defineProperty({ executionId: 'e', status: 'completed' }, 'trace', {
      enumerable: true,
      get() {
        throw new Error('trace getter');
      },
    });
    expect(() => computeCriticMetrics([trace] as never)).toThrow(
      expect.objectContaining({
        issues: [{ code: 'unreadable', path: ['traces'], message: 'reading the traces threw (Error: trace getter)' }],
      }),
    );
  });

  it('computeCriticMetrics refuses what is not a list of execution traces, at each path', () => {
    expect(() => computeCriticMetrics(null as never)).toThrow('$.traces: expected a list of execution traces');
    const refused = () => computeCriticMetrics([{}, 3, { trace: [] }] as never);
    expect(refused).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        issues: [
          { code: 'invalid_type', path: ['traces', 0, 'trace'], message: 'expected its trace records' },
          { code: 'invalid_type', path: ['traces', 1], message: 'expected an execution trace' },
        ],
      }),
    );
    expect(computeCriticMetrics([]).overall.executions).toBe(0);
    for (const record of [null, { kind: 'judged' }, { kind: 'nope' }, { kind: 'generated', stage: 'a', attempt: 1 }]) {
      const bad = () => computeCriticMetrics([{ executionId: 'e', status: 'completed', trace: [record] }] as never);
      expect(bad).toThrow(
        expect.objectContaining({
          issues: [{ code: 'invalid_type', path: ['traces', 0, 'trace', 0], message: 'expected a trace record' }],
        }),
      );
    }
  });
});
