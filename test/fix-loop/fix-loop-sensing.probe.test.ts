import { describe, expect, it } from 'vitest';
import { ON_PATH, sense } from './sense.js';

// The probe step: a program missing from PATH, node_modules missing, a missing workspace or a failing probe is a
// missing requirement that escalates infra_gap.

describe('fix-loop sensing: probe and measure', () => {
  it('the default probe finds a program missing from PATH and node_modules missing, and escalates infra_gap', async () => {
    const { probe, gap } = await sense([{ match: "command -v 'npm'", respond: { exitCode: 1 } }], {
      files: { 'ws/package.json': '{"dependencies":{"zod":"^4"}}' },
      input: { buildCommand: 'NODE_ENV=ci "npm" run build' },
    });
    expect(probe).toMatchObject({
      action: 'probe',
      status: 'escalated',
      escalation: { escalation_reason: 'infra_gap' },
    });
    expect(gap.requirements.missing).toEqual([
      'program "npm" (of the command "NODE_ENV=ci "npm" run build") is not on PATH in /project/ws',
      'node_modules is missing in /project/ws and every folder above it, though its package.json declares dependencies (run npm ci there)',
    ]);
    expect(probe.escalation?.recommended_next_step).toMatch(/npm ci/);
    expect(probe.escalation?.detail).toBe(
      'The environment is not ready, and no code fix can make it so: ' +
        'program "npm" (of the command "NODE_ENV=ci "npm" run build") is not on PATH in /project/ws; ' +
        'node_modules is missing in /project/ws and every folder above it, though its package.json declares ' +
        'dependencies (run npm ci there). A human must set it up (for example, by running a setup script such as ' +
        '`npm ci` in the workspace).',
    );
  });

  it('the escalation detail reads as a sentence for a missing workspace too', async () => {
    const { probe } = await sense([ON_PATH], { input: { workspace: 'nope' } });
    expect(probe.escalation?.detail).toBe(
      'The environment is not ready, and no code fix can make it so: ' +
        'workspace "nope" does not exist (looked for /project/nope). A human must set it up (for example, by ' +
        'running a setup script such as `npm ci` in the workspace).',
    );
  });

  it('a probe that throws or answers nonsense is a missing requirement, not a crash', async () => {
    const throwing = await sense([ON_PATH], { probe: { probe: async () => Promise.reject(new Error('no docker')) } });
    expect(throwing.gap.requirements.missing).toEqual(['the environment probe failed: no docker']);
    const odd = await sense([ON_PATH], { probe: { probe: async () => ({ missing: 'all' }) as never } });
    expect(odd.probe.status).toBe('escalated');
  });
});
