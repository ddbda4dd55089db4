/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  // The examples import their siblings as an ESM app must (`./chatRoutes.js`): map to the .ts file.
  // remend ships ESM with only an `import` condition: its file, by path (compiled below).
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^remend$': '<rootDir>/node_modules/remend/dist/index.js',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
    // ESM-only packages (the AI SDK 7 as `ai7`, and zod's .js files it imports) to CommonJS.
    '/node_modules/(ai7|zod|remend)/.+\\.js$': '<rootDir>/spec/helpers/esmPackageTransform.js',
  },
  transformIgnorePatterns: ['^(?!.*/node_modules/(ai7|zod|remend)/).*/node_modules/'],
  globalSetup: '<rootDir>/spec/helpers/globalSetup.ts',
  setupFilesAfterEnv: ['<rootDir>/spec/helpers/setup.ts'],
  testTimeout: 60000,
};
