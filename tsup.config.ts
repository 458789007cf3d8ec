import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    review: 'src/review.ts',
    critics: 'src/critics.ts',
    'fix-loop': 'src/fix-loop.ts',
    node: 'src/node.ts',
    testing: 'src/testing.ts',
    postgres: 'src/postgres.ts',
    contracts: 'src/contracts.ts',
  },
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  sourcemap: true,
  // The build script empties dist/ first: the two builds run at once, and each one's clean would race the other.
  clean: false,
  target: 'node20',
  splitting: true,
  treeshake: true,
};

// The ESM-only dependencies: external in the ESM build, bundled (with what they import) into the CommonJS build,
// because CommonJS loaders that cannot require() an ES module (Jest's, Node without require(esm)) must load it.
const esmOnlyDependencies = ['p-limit', 'execa'];

export default defineConfig([
  { ...shared, format: ['esm'] },
  { ...shared, format: ['cjs'], noExternal: esmOnlyDependencies },
]);
