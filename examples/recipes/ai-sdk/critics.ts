// StagedPipeline critics on the Vercel AI SDK: a generator that writes a stage's output and a critic that judges
// it as a structured object (the critic's decision shape), both priced from their usage.
import { generateText, type LanguageModel, Output } from 'ai';
import type { Critic, Generator, GeneratorInput } from 'goal-loop/critics';
import { z } from 'zod';
import { costOf, type Pricing } from './stage-runner.js';

// What the critic model must answer: the critic's return shape.
const decisionSchema = z.object({
  decision: z.enum(['accept', 'retry', 'route_back', 'escalate']),
  issues: z.array(z.object({ issue: z.string(), requiredChange: z.string().optional() })),
  routeTo: z.string().optional(),
  confidence: z.number().min(0).max(1),
});

// The critic's issues of the last attempt, for the generator's next prompt.
const feedbackNote = ({ feedback }: GeneratorInput): string =>
  feedback.kind === 'initial'
    ? ''
    : [
        '',
        `Revise your last answer (${feedback.reason ?? feedback.kind}):`,
        ...feedback.issues.map((each) => `- ${each.issue}${each.requiredChange ? `: ${each.requiredChange}` : ''}`),
      ].join('\n');

/** A generator asking `model` for a stage's output, with the earlier accepted outputs and the critic's issues. */
export function aiSdkGenerator(model: LanguageModel, pricing: Pricing, task: string): Generator {
  return async (input) => {
    const { text, totalUsage } = await generateText({
      model,
      prompt: `${task}\nSpec: ${JSON.stringify(input.spec)}\nAccepted so far: ${JSON.stringify(input.accepted)}${feedbackNote(input)}`,
      abortSignal: input.signal,
      experimental_telemetry: { isEnabled: true, functionId: `${input.stageId}.generator` },
    });
    return { output: text, costUsd: costOf(totalUsage, pricing) };
  };
}

/** A critic asking `model` to judge a stage's output by `rubric`, answering the critic's decision shape. */
export function aiSdkCritic(model: LanguageModel, pricing: Pricing, rubric: string): Critic {
  return async (input) => {
    const { output, totalUsage } = await generateText({
      model,
      output: Output.object({ schema: decisionSchema }),
      prompt: `${rubric}\nSpec: ${JSON.stringify(input.spec)}\nOutput to judge: ${JSON.stringify(input.output)}`,
      abortSignal: input.signal,
      experimental_telemetry: { isEnabled: true, functionId: `${input.stageId}.critic` },
    });
    return { ...output, costUsd: costOf(totalUsage, pricing) };
  };
}
