import { MockLanguageModelV3 } from 'ai/test';

// The AI SDK's own mock model, answering every call with `texts` in turn (the last one repeated) and this usage.

/** A mock language model of the AI SDK's, its calls recorded in `doGenerateCalls`. */
export function mockModel(texts: readonly string[] = ['done'], tokens = { input: 10, output: 5 }): MockLanguageModelV3 {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: texts[Math.min(call++, texts.length - 1)] ?? '' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: tokens.output, text: tokens.output, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}
