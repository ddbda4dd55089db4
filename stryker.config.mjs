// Mutation testing of the rule-bearing folders: `npm run mutation` (all four, slow) or one at a time,
// `npm run mutation -- --mutate 'src/operators/**/*.ts'`. See CONTRIBUTING.md for the scores.
const all = ['operators', 'providers', 'chunking', 'delivery'];

// Which folders this run mutates, read from `--mutate` / `-m` so that jest runs only their specs.
function mutatedFolders(argv) {
  const at = argv.findIndex((arg) => arg === '--mutate' || arg === '-m');
  const inline = argv.find((arg) => arg.startsWith('--mutate='));
  const globs = inline ? inline.slice('--mutate='.length) : at >= 0 ? argv[at + 1] : undefined;
  if (!globs) return all;
  const named = all.filter((folder) => globs.includes(`src/${folder}`));
  return named.length > 0 ? named : all;
}

const folders = mutatedFolders(process.argv);
process.env.LLMRX_MUTATION_FOLDERS = folders.join(',');
const reportName = folders.length === all.length ? 'all' : folders.join('-');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'jest.mutation.config.js',
    enableFindRelatedTests: true,
  },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/operators/**/*.ts',
    'src/providers/**/*.ts',
    'src/chunking/**/*.ts',
    'src/delivery/**/*.ts',
  ],
  // A shared two-core machine: two test processes at most, and a bound on every mutant.
  concurrency: 2,
  timeoutMS: 5000,
  timeoutFactor: 1.5,
  dryRunTimeoutMinutes: 15,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${reportName}.html` },
  jsonReporter: { fileName: `reports/mutation/${reportName}.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  ignorePatterns: ['reports', 'dist', 'coverage', '.bench-out', '.e2e-artifacts'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
