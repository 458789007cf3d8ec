import { describe, expect, it } from 'vitest';
import type { FixAttempt } from '../../../src/fix-loop/contracts/attempt.js';
import { policyDecisionSchema } from '../../../src/fix-loop/contracts/decision.js';
import type { GapModel } from '../../../src/fix-loop/contracts/gap.js';
import { MAX_ATTEMPTS_CAP } from '../../../src/fix-loop/contracts/start.js';
import { decideNextAction, FIX_POLICY, type PolicyInput, policyFacts } from '../../../src/fix-loop/core/policy.js';
import { attempt, gapOf } from './fixtures.js';

const input = (over: Partial<PolicyInput> = {}): PolicyInput => ({
  environment_verified: true,
  gap: gapOf(0, 2),
  attempts: [],
  max_attempts: 5,
  ...over,
});

const decided = (over: Partial<PolicyInput>): string => {
  const decision = decideNextAction(input(over));
  return decision.reason === undefined ? decision.action : `${decision.action}:${decision.reason}`;
};

const attempts = (...pairs: [number, number | null][]): FixAttempt[] =>
  pairs.map(([before, after], index) => attempt(index, before, after));

// name, input → action (and escalation reason).
const table: [string, Partial<PolicyInput>, string][] = [
  ['no environment snapshot: probe first', { environment_verified: false, gap: null }, 'probe'],
  ['probe first even with a gap recorded', { environment_verified: false, gap: gapOf(3, 0) }, 'probe'],
  ['verified, nothing measured: measure', { gap: null }, 'measure'],
  ['requirements gap: escalate infra_gap', { gap: gapOf(0, 0, ['node_modules']) }, 'escalate:infra_gap'],
  ['requirements gap wins over a failing build', { gap: gapOf(4, 2, ['python3']) }, 'escalate:infra_gap'],
  ['build failing: build iteration', { gap: gapOf(2, 0) }, 'build_iteration'],
  ['build and tests failing: build first', { gap: gapOf(1, 3) }, 'build_iteration'],
  ['tests failing: test iteration', { gap: gapOf(0, 1) }, 'test_iteration'],
  ['gap zero: converged', { gap: gapOf(0, 0) }, 'converged'],
  [
    'gap zero at the attempt bound: converged wins',
    { gap: gapOf(0, 0), attempts: attempts([1, 1], [1, 1], [1, 0]), max_attempts: 3 },
    'converged',
  ],
  ['attempts at max: escalate', { attempts: attempts([3, 2], [2, 1]), max_attempts: 2 }, 'escalate:max_attempts'],
  [
    'attempts beyond max: escalate',
    { attempts: attempts([3, 2], [2, 1], [1, 1]), max_attempts: 1 },
    'escalate:max_attempts',
  ],
  ['max wins over a worsening trend', { attempts: attempts([1, 2], [2, 3]), max_attempts: 2 }, 'escalate:max_attempts'],
  ['worse two attempts in a row: escalate', { attempts: attempts([1, 2], [2, 3]) }, 'escalate:worsening_trend'],
  ['worse once only: go on', { attempts: attempts([3, 2], [2, 3]) }, 'test_iteration'],
  ['worse, then better, then worse: go on', { attempts: attempts([1, 2], [2, 1], [1, 2]) }, 'test_iteration'],
  ['unchanged two attempts in a row: escalate', { attempts: attempts([2, 2], [2, 2]) }, 'escalate:no_progress'],
  ['worse then unchanged: neither trend', { attempts: attempts([1, 2], [2, 2]) }, 'test_iteration'],
  ['an interrupted attempt breaks a trend', { attempts: attempts([1, 2], [2, null], [2, 3]) }, 'test_iteration'],
  [
    'worsening wins over no progress (listed first)',
    { attempts: attempts([2, 2], [2, 2], [2, 3], [3, 4]), max_attempts: 9 },
    'escalate:worsening_trend',
  ],
  [
    'max_attempts above the cap: the cap applies',
    {
      attempts: attempts(...Array.from({ length: MAX_ATTEMPTS_CAP }, (_, i): [number, number] => [60 - i, 59 - i])),
      max_attempts: 1000,
    },
    'escalate:max_attempts',
  ],
  [
    'max_attempts not a number: the strictest bound',
    { attempts: attempts([3, 2]), max_attempts: Number.NaN },
    'escalate:max_attempts',
  ],
];

describe('decideNextAction', () => {
  it.each(table)('%s', (_name, over, expected) => {
    expect(decided(over)).toBe(expected);
  });

  it('gives a rationale sentence and a confidence in [0, 1] for every row', () => {
    for (const [, over] of table) {
      const decision = decideNextAction(input(over));
      expect(decision.rationale.length).toBeGreaterThan(10);
      expect(decision.confidence).toBeGreaterThanOrEqual(0);
      expect(decision.confidence).toBeLessThanOrEqual(1);
      expect(policyDecisionSchema.safeParse(decision).success).toBe(true);
    }
  });

  it('suggests a setup script for a requirements gap, each requirement the clause the probe wrote', () => {
    const lines = [
      'workspace "w" does not exist (looked for /p/w)',
      'program "make" (of the command "make, then") is not on PATH in /p',
    ];
    const decision = decideNextAction(input({ gap: gapOf(0, 0, lines) }));
    expect(decision.rationale).toBe(
      `The environment is not ready, and no code fix can make it so: ${lines[0]}; ${lines[1]}. ` +
        'A human must set it up (for example, by running a setup script such as `npm ci` in the workspace).',
    );
  });

  it('decides the same for the same input, and survives a JSON round trip', () => {
    const same = input({ attempts: attempts([3, 2], [2, 2]) });
    const first = decideNextAction(same);
    expect(decideNextAction(structuredClone(same))).toEqual(first);
    expect(policyDecisionSchema.parse(JSON.parse(JSON.stringify(first)))).toEqual(first);
  });

  it('reads the gap from its parts, not from a stale total', () => {
    const stale: GapModel = { ...gapOf(0, 2), gap: 0 };
    expect(decided({ gap: stale })).toBe('test_iteration');
    const inflated: GapModel = { ...gapOf(0, 0), gap: 7 };
    expect(decided({ gap: inflated })).toBe('converged');
  });

  it('takes a session record as it stands', () => {
    const facts = policyFacts({ ...input(), attempts: attempts([4, 3]) });
    expect(facts).toMatchObject({ attemptsMade: 1, bound: 5, total: 2, worseInARow: 0, flatInARow: 0 });
  });
});

describe('FIX_POLICY', () => {
  it('lists its rows in the documented order', () => {
    expect(FIX_POLICY.map((row) => row.id)).toEqual([
      'probe',
      'measure',
      'infra_gap',
      'converged',
      'max_attempts',
      'worsening_trend',
      'no_progress',
      'build_failing',
      'tests_failing',
    ]);
  });

  it('sets an escalation reason on escalating rows only', () => {
    for (const row of FIX_POLICY) expect(row.reason !== undefined).toBe(row.action === 'escalate');
  });
});
