import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The examples import the package by its name, as a user would; the tests that run them read it from src/.
const src = (file: string): string => fileURLToPath(new URL(`./src/${file}`, import.meta.url));
// Two tiers: `fast` (unit, property and in-memory tests: `npm test`) and `integration` (files named
// *.integration.test.ts, which spawn real processes, git, MCP server children or lock races:
// `npm run test:integration`).
const INTEGRATION = 'test/**/*.integration.test.ts';

export default defineConfig({
  resolve: {
    alias: [
      { find: /^goal-loop$/, replacement: src('index.ts') },
      { find: /^goal-loop\/(review|critics|fix-loop|node|testing)$/, replacement: src('$1.ts') },
    ],
  },
  test: {
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [INTEGRATION],
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
        },
      },
      { extends: true, test: { name: 'integration', include: [INTEGRATION], testTimeout: 60_000 } },
    ],
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary'],
      // About a point under the fast tier's measured figures (95.7 / 90.0 / 97.1 / 97.0): coverage may not slide.
      thresholds: { statements: 94.5, branches: 89, functions: 96, lines: 96 },
    },
  },
});
