import { findChromium } from './chromium';

// Says plainly, once per run, when the specs over the real provider captures will skip.
export default function globalSetup(): void {
  if (!process.env.LLMRX_CORPUS_DIR) {
    console.log(
      '\nLLMRX_CORPUS_DIR is not set: the specs over the real provider captures are skipped ' +
        '(.ci/run sets it to ../shared/fixtures/real:../shared/fixtures/real-2026).\n',
    );
  }
  // …and when the browser e2e spec will (under CI=true it fails instead).
  if (!findChromium() && process.env.CI !== 'true') {
    console.log(
      'Chromium not found: the browser e2e spec is skipped (apt-get install chromium).\n',
    );
  }
}
