// Jest (CommonJS) consumer of the built package: requires each entry point by name, resolved through
// the package's own "exports" (self-reference), so it loads dist/*.cjs exactly as a CommonJS app would.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/**/*.test.cjs'],
  transform: {},
  testTimeout: 30_000,
};
