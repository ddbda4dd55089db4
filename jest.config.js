/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/spec/helpers/globalSetup.ts',
  setupFilesAfterEnv: ['<rootDir>/spec/helpers/setup.ts'],
  testTimeout: 60000,
};
