const { existsSync } = require('node:fs');
const { join } = require('node:path');

// The dev packages whose Node floor is 22 (the AI SDK 7 as `ai7`, its React hook, grammY's stream
// plugin) live in node22/, installed on Node 24 by `.ci/run` (or `npm run install:node22`), so
// that the root install on Node 20 has no engine warning. Jest finds them there; the AI SDK 7
// specs run only on Node >= 22 with node22/ installed (spec/helpers/aiSdkMajors.ts reads the
// global below, spec/helpers/globalSetup.ts says in one line when they are left out).
const node22Modules = join(__dirname, 'node22', 'node_modules');
const node22Installed = existsSync(join(node22Modules, 'ai7', 'package.json'));
const nodeMajor = Number(process.versions.node.split('.')[0]);

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
  modulePaths: node22Installed ? [node22Modules] : [],
  globals: {
    LLMRX_NODE22_INSTALLED: node22Installed,
    LLMRX_AI_SDK_7: node22Installed && nodeMajor >= 22,
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
    // ESM-only packages (everything in node22/, and zod's .js files) to CommonJS.
    '(/node22/node_modules/|/node_modules/(zod|remend)/).+\\.js$':
      '<rootDir>/spec/helpers/esmPackageTransform.js',
  },
  transformIgnorePatterns: [
    '^(?!.*(/node22/node_modules/|/node_modules/(zod|remend)/)).*/node_modules/',
  ],
  globalSetup: '<rootDir>/spec/helpers/globalSetup.ts',
  setupFilesAfterEnv: ['<rootDir>/spec/helpers/setup.ts'],
  testTimeout: 60000,
};
