import { MockLanguageModelV3 } from 'ai/test';

// The AI SDK's own mock model (from `ai/test`), answering each call with the next of `texts` (the last one repeated),
// so the recipes run without a provider or a key. Swap it for a real model: `openai('gpt-4.1')`, `anthropic(...)`.

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
