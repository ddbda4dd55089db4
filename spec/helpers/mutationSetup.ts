// Set up for the mutation run only (jest.mutation.config.js). A property that fails stops at its
// first counterexample instead of shrinking it: a mutant is killed by any failure, and shrinking
// a generated markdown text can take longer than the run that found it. And the chunker's
// property spec makes 200 cases per property instead of 1000 (LLMRX_PROPERTY_RUNS), the same
// seeds: a surviving mutant runs every spec that reaches it, and those 3000 cases were most of
// a chunking mutant's 15-40 s. A mutant only a later case would catch survives: the score is a
// lower bound.
import fc from 'fast-check';

process.env.LLMRX_PROPERTY_RUNS ??= '200';

fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true });
