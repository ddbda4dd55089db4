// The jest configuration of the mutation run (`npm run mutation`): the project's own configuration,
// narrowed to the specs that exercise the folders being mutated, so that Stryker's first full run
// (and every mutant that reaches module-level code) stays short on a small machine.
// stryker.config.mjs sets LLMRX_MUTATION_FOLDERS from `--mutate`; unset, all four folders count.
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');
const base = require('./jest.config.js');

// Stryker's sandbox (.stryker-tmp/sandbox-*) gets no node_modules link when the project's own is a
// symlink (a git worktree sharing another's install): Node still finds packages by walking up, so
// the one package mapped by path (remend) is looked up the same way.
function packageFile(relative) {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', relative);
    if (existsSync(file)) return file;
  }
  return join(__dirname, 'node_modules', relative);
}

// Spec folders (under spec/) and single spec files per mutated source folder. The marble runner
// carries the timing rules of every operator and decoder, so it belongs to all of them.
const specsFor = {
  operators: ['operators/**/*.spec.ts', 'source/errorSurface.spec.ts', 'source/fromEvents.spec.ts'],
  providers: ['providers/**/*.spec.ts', 'streamEvents.spec.ts', 'reliability/fuzz.spec.ts'],
  chunking: ['chunking/**/*.spec.ts', 'channels/**/*.spec.ts', 'reliability/rechunking.spec.ts'],
  delivery: ['delivery/**/*.spec.ts', 'reliability/telegramConservation.spec.ts'],
};

const folders = (process.env.LLMRX_MUTATION_FOLDERS || Object.keys(specsFor).join(','))
  .split(',')
  .filter((folder) => folder in specsFor);

// LLMRX_MUTATION_SPECS (spec files under spec/, comma-separated) replaces those specs and the
// marble runner: a module that every marble of deliver and every delivery spec reaches (the
// reports, the notices) runs minutes per mutant otherwise. Its score is then a lower bound.
const namedSpecs = (process.env.LLMRX_MUTATION_SPECS || '')
  .split(',')
  .map((spec) => spec.trim())
  .filter((spec) => spec !== '');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  moduleNameMapper: { ...base.moduleNameMapper, '^remend$': packageFile('remend/dist/index.js') },
  testMatch:
    namedSpecs.length > 0
      ? namedSpecs.map((spec) => `<rootDir>/spec/${spec}`)
      : [
          '<rootDir>/spec/marbles.spec.ts',
          ...folders.flatMap((folder) => specsFor[folder].map((glob) => `<rootDir>/spec/${glob}`)),
        ],
  // Properties end at their first counterexample, the chunker's in 200 cases: spec/helpers/mutationSetup.ts.
  setupFilesAfterEnv: [...base.setupFilesAfterEnv, '<rootDir>/spec/helpers/mutationSetup.ts'],
  // The suite's own timeout: a mutant that loops is Stryker's to time out (timeoutMS).
  testTimeout: 30000,
};
