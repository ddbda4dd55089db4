// Jest runs the specs as CommonJS, and Node 20 cannot require() an ES module: the packages that
// ship only ESM (the AI SDK 7 under the alias `ai7`, with its own @ai-sdk/* and @workflow/*)
// are compiled to CommonJS by esbuild on load. A syntax change only; their code runs as shipped.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code } = transformSync(source, {
      format: 'cjs',
      loader: 'js',
      target: 'node20',
      sourcefile: filename,
    });
    return { code };
  },
};
