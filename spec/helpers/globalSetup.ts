import type { Config } from 'jest';
import { findChromium } from './chromium';

// Says plainly, once per run, when the specs over the real provider captures will skip.
export default function globalSetup(
  _global: unknown,
  project: { globals?: Config['globals'] },
): void {
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
  // …and when the AI SDK 7 specs are left out (jest.config.js decides).
  const globals = project.globals ?? {};
  if (!globals.LLMRX_AI_SDK_7) {
    const why = globals.LLMRX_NODE22_INSTALLED
      ? `Node ${process.versions.node} is below their floor (22)`
      : 'node22/ is not installed (npm run install:node22, on Node 22 or newer)';
    console.log(`AI SDK 7 specs left out: ${why}; .ci/run runs them on Node 24.\n`);
  }
}
