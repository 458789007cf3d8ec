// A GoalLoop stage runner on the Vercel AI SDK: one generateText call per stage, its artifact written through the
// loop's filesystem. Copy it and change the prompts and the pricing.
import { generateText, type LanguageModel, type LanguageModelUsage } from 'ai';
import type { StageContext, StageRunner } from 'goal-loop';

/** What a model costs, in USD per million input and output tokens. */
export interface Pricing {
  readonly input: number;
  readonly output: number;
}

/** The USD cost of a call's usage (its totalUsage, across steps). */
export const costOf = (usage: LanguageModelUsage, price: Pricing): number =>
  ((usage.inputTokens ?? 0) * price.input + (usage.outputTokens ?? 0) * price.output) / 1_000_000;

/** Why the stage runs again, for the prompt: the retry's reason and each unmet criterion's detail. */
export function retryNote(context: StageContext): string {
  const { reason } = context;
  const retry = reason.kind === 'retry' ? reason : reason.kind === 'resume' ? reason.retry : undefined;
  if (retry === undefined) return '';
  const details = (context.previousEvaluation?.criteria ?? [])
    .filter((criterion) => retry.criteria.includes(criterion.id))
    .map((criterion) => `- ${criterion.id}: ${criterion.detail}`);
  return ['', 'Your previous attempt did not meet the goal:', retry.reason, ...details].join('\n');
}

/** A stage runner asking `model` for each stage's artifact, written to `artifacts/stages/<id>/<file>`. */
export function aiSdkStageRunner(options: {
  readonly model: LanguageModel;
  readonly pricing: Pricing;
  readonly prompts: Readonly<Record<string, { readonly prompt: string; readonly file: string }>>;
}): StageRunner {
  return {
    async run(stageId, context) {
      const stage = options.prompts[stageId];
      if (stage === undefined) return { status: 'blocked', detail: `no prompt for stage ${stageId}` };
      const { text, totalUsage } = await generateText({
        model: options.model,
        prompt: `${stage.prompt}${retryNote(context)}`,
        abortSignal: context.signal,
        experimental_telemetry: { isEnabled: true, functionId: stageId },
      });
      const artifact = `${context.runDir}/artifacts/stages/${stageId}/${stage.file}`;
      await context.fs.writeText(artifact, text);
      return { status: 'passed', costUsd: costOf(totalUsage, options.pricing), artifacts: [artifact] };
    },
  };
}
