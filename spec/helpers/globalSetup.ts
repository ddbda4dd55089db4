// Says plainly, once per run, when the specs over the real provider captures will skip.
export default function globalSetup(): void {
  if (!process.env.LLMRX_CORPUS_DIR) {
    console.log(
      '\nLLMRX_CORPUS_DIR is not set: the specs over the real provider captures are skipped ' +
        '(.ci/run sets it to ../shared/fixtures/real).\n',
    );
  }
}
