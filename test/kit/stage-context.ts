import type { StageContext } from '../../src/index.js';

/** The context a stage runner gets for the first run of its stage: `iteration` 1 and a fresh signal unless given. */
export function initialStageContext(
  fs: StageContext['fs'],
  runDir: string,
  options: { readonly signal?: AbortSignal; readonly iteration?: number } = {},
): StageContext {
  return {
    runDir,
    iteration: options.iteration ?? 1,
    reason: { kind: 'initial' },
    previousEvaluation: null,
    fs,
    signal: options.signal ?? new AbortController().signal,
  };
}
