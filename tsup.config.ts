import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', review: 'src/review.ts', node: 'src/node.ts', testing: 'src/testing.ts' },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
