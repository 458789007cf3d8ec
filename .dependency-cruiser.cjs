// The dependency rules of SPEC §3, checked in CI (`npm run depcruise`); every rule is an error.
// Layers, bottom up: kit → ports → runtime, pipeline (and errors.ts) → capabilities (goal, review,
// critics, fix-loop; each with contracts/ and a pure core/) → entry points. Adapters (node/, testing/, postgres/)
// sit beside the capabilities and see only the bottom layers.

const CAPABILITY = 'goal|review|critics|fix-loop';
// The files under a capability's pure core.
const CORE = `^src/(${CAPABILITY})/(core|analyses)/`;
// A port implementation: an adapter folder or its entry point.
const ADAPTER = '^src/(node|testing|postgres)(/|[.]ts$)';
const ERRORS = '^src/errors[.]ts$';
// A package resolves to its folder under node_modules; a Node built-in to its bare name (`node:` dropped).
const pkg = (name) => `(^|/)node_modules/${name}/`;
const NODE_IO = [pkg('execa'), '^(node:)?(fs|child_process|os)(/|$)'];

/** One rule per I/O library: only `file` may import `library`. */
const onlyOneImporter = (library, file) => ({
  name: `one-importer-${library}`,
  comment: `${library} is an I/O library; only ${file} imports it.`,
  severity: 'error',
  from: { path: '^src/', pathNot: `^${file.replaceAll('.', '[.]')}$` },
  to: { path: pkg(library) },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No cycles between files.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'kit-imports-nothing',
      comment: 'kit/ is pure and domain-free: it imports nothing of the library.',
      severity: 'error',
      from: { path: '^src/kit/' },
      to: { path: '^src/', pathNot: '^src/kit/' },
    },
    {
      name: 'ports-import-only-kit',
      comment: 'ports/ are domain-free: they import only kit/.',
      severity: 'error',
      from: { path: '^src/ports/' },
      to: { path: '^src/', pathNot: '^src/(ports|kit)/' },
    },
    {
      name: 'machinery-imports-only-kit-ports-errors',
      comment: 'runtime/ and pipeline/ import only kit/, ports/ and errors.ts (and their own folder).',
      severity: 'error',
      from: { path: '^src/(runtime|pipeline)/' },
      to: { path: '^src/', pathNot: [`^src/$1/`, '^src/(kit|ports)/', ERRORS] },
    },
    {
      name: 'machinery-imports-no-node-builtin',
      comment:
        'kit/, ports/, runtime/ and pipeline/ import no Node built-in (what they need of the system comes through a ' +
        'port), so the root entry loads none.',
      severity: 'error',
      from: { path: '^src/(kit|ports|runtime|pipeline)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-imports-no-adapter',
      comment: "A capability's core imports no port implementation (node/, testing/).",
      severity: 'error',
      from: { path: CORE },
      to: { path: ADAPTER },
    },
    {
      name: 'core-imports-no-runtime',
      comment: "A capability's core is pure: it does not import runtime/.",
      severity: 'error',
      from: { path: CORE },
      to: { path: '^src/runtime/' },
    },
    {
      name: 'core-imports-no-node-builtin',
      comment: "A capability's core is pure: no Node built-in.",
      severity: 'error',
      from: { path: CORE },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'capability-through-entry-point',
      comment:
        'A capability imports another capability only through its entry point ' +
        '(goal: src/index.ts, or src/goal-shared.ts for what the review reads of it; review: src/review.ts, ' +
        'critics: src/critics.ts, fix-loop: src/fix-loop.ts).',
      severity: 'error',
      from: { path: `^src/(${CAPABILITY})/` },
      to: { path: `^src/(${CAPABILITY})/`, pathNot: '^src/$1/' },
    },
    {
      name: 'contracts-entry-is-a-leaf',
      comment:
        "goal-loop/contracts (src/contracts.ts) re-exports the capabilities' contracts; nothing in src/ imports it.",
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/contracts[.]ts$' },
    },
    {
      name: 'goal-shared-for-the-review',
      comment: "src/goal-shared.ts is the goal loop's seam for the review (and goal-loop/contracts), no one else's.",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/review/', '^src/contracts[.]ts$'] },
      to: { path: '^src/goal-shared[.]ts$' },
    },
    {
      name: 'root-entry-is-the-goal-loop',
      comment: 'The root entry (src/index.ts) does not import the other capabilities.',
      severity: 'error',
      from: { path: '^src/index[.]ts$' },
      to: { path: '^src/(review|critics|fix-loop)(/|[.]ts$)' },
    },
    {
      name: 'only-entries-import-adapters',
      comment:
        'Adapters (node/, testing/, postgres/) are reached only through their own entry points, never from a capability.',
      severity: 'error',
      from: { path: '^src/', pathNot: ADAPTER },
      to: { path: ADAPTER },
    },
    {
      name: 'adapters-import-only-ports-kit-errors',
      comment: 'Adapters import only ports/, kit/ and errors.ts of the library (and their own folder).',
      severity: 'error',
      from: { path: '^src/(node|testing|postgres)/' },
      to: { path: '^src/', pathNot: [`^src/$1/`, '^src/(ports|kit)/', ERRORS] },
    },
    {
      name: 'node-adapter-packages',
      comment: 'node/ uses execa and Node built-ins, no other package.',
      severity: 'error',
      from: { path: '^src/node/' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: NODE_IO[0],
      },
    },
    {
      name: 'testing-adapter-packages',
      comment: 'testing/ uses Node built-ins (node:assert/strict for the conformance suite), no package.',
      severity: 'error',
      from: { path: '^src/testing/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'postgres-adapter-packages',
      comment: 'postgres/ takes its client from the host (a pg Pool, PGlite): it imports no package and no built-in.',
      severity: 'error',
      from: { path: '^src/postgres/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'] },
    },
    {
      name: 'node-io-only-in-node-adapter',
      comment: 'Nothing but src/node/ imports execa, node:fs, node:child_process or node:os.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/node/' },
      to: { path: NODE_IO },
    },
    onlyOneImporter('execa', 'src/node/command-runner.ts'),
    onlyOneImporter('ajv', 'src/runtime/json-schema-check.ts'),
    onlyOneImporter('ajv-formats', 'src/runtime/json-schema-check.ts'),
    onlyOneImporter('re2js', 'src/runtime/linear-regexp.ts'),
    onlyOneImporter('p-limit', 'src/runtime/concurrency.ts'),
    onlyOneImporter('@opentelemetry/api', 'src/ports/open-telemetry.ts'),
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-dev-dependency-in-src',
      comment:
        'The shipped code imports no devDependency (but the optional peer @opentelemetry/api, a devDependency for ' +
        'the tests too, which only src/ports/open-telemetry.ts loads, lazily).',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'], pathNot: pkg('@opentelemetry/api') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.json'],
    },
    combinedDependencies: false,
    skipAnalysisNotInRules: true,
  },
};
