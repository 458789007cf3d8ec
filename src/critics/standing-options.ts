import { z } from 'zod';
import type { Issue } from '../errors.js';
import { ownValue } from '../kit/record.js';
import type { ProbationDraw, Standing } from './core/standing-gate.js';

/** How the accepts of critics on probation are checked. @public */
export interface ProbationOptions {
  /** Share of their accepts that are checked, from 0 to 1 (default 1: every one). */
  readonly reviewRate?: number;
  /** What the draw hashes with each call, so a run and its resume draw the same (default `probation`). */
  readonly seed?: string;
}

/** The zod shapes of the standing options, for the pipeline's option check. @internal */
export const standingOptionShape = {
  standing: z.record(z.string(), z.enum(['full', 'probation', 'revoked'])).optional(),
  probation: z
    .strictObject({ reviewRate: z.number().min(0).max(1).optional(), seed: z.string().optional() })
    .optional(),
};

/** The stages a standing may name, as the options give them. @internal */
interface StageView {
  readonly id?: unknown;
  readonly critic?: unknown;
  readonly secondCritic?: unknown;
}

/**
 * The issues of a standing that names a stage the pipeline does not have, or
 * one without a critic (there is no critic to trust or not), and of a second
 * critic on a stage without a first. Pure. @internal
 */
export function standingIssues(standing: unknown, stages: unknown): Issue[] {
  const list: StageView[] = Array.isArray(stages) ? stages : [];
  const byId = new Map(list.map((stage) => [stage?.id, stage]));
  const issues: Issue[] = [];
  list.forEach((stage, index) => {
    if (stage?.secondCritic !== undefined && stage.critic === undefined)
      issues.push({
        code: 'second_critic_alone',
        path: ['stages', index, 'secondCritic'],
        message: 'a second critic checks the accepts of the stage critic: give the stage a critic',
      });
  });
  if (typeof standing !== 'object' || standing === null) return issues;
  for (const id of Object.keys(standing)) {
    const stage = byId.get(id);
    if (stage === undefined)
      issues.push({ code: 'unknown_stage', path: ['standing', id], message: `no stage has the id "${id}"` });
    else if (stage.critic === undefined)
      issues.push({ code: 'no_critic', path: ['standing', id], message: `the ${id} stage has no critic to stand` });
  }
  return issues;
}

/** The standing of a stage's critic (default full). Pure. @internal */
export function standingOf(standing: Readonly<Record<string, Standing>> | undefined, stage: string): Standing {
  return standing === undefined ? 'full' : (ownValue(standing, stage) ?? 'full');
}

/** The probation draw of the options, with its defaults. Pure. @internal */
export function probationDraw(options: ProbationOptions | undefined): ProbationDraw {
  return { reviewRate: options?.reviewRate ?? 1, seed: options?.seed ?? 'probation' };
}
