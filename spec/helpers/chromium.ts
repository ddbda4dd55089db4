import { findExecutable } from './findExecutable';

/**
 * The Chromium the e2e specs drive: `CHROMIUM_PATH` when set, else `chromium` or
 * `chromium-browser` on the PATH, searched as `.ci/run`'s `command -v` does (Debian's package
 * `chromium`, which `.ci/run` installs when neither is found). No `which`: a minimal image may not
 * have it, and then CI would skip the install yet the spec would not find the browser.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findExecutable('CHROMIUM_PATH', ['chromium', 'chromium-browser'], [], env);
}

/**
 * Flags for a headless Chromium that also runs as root in a container: no sandbox (root), no
 * GPU, and /tmp instead of a small /dev/shm.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
];

/**
 * `describe` for specs that need Chromium. Without it: under `CI=true` one failing test that
 * names the package to install (CI must not pass by skipping), elsewhere one skipped test that
 * says how to get it.
 */
export function describeWithChromium(title: string, body: (executablePath: string) => void): void {
  const executablePath = findChromium();
  if (executablePath) return describe(title, () => body(executablePath));
  const hint = 'Chromium not found: apt-get install chromium (or set CHROMIUM_PATH)';
  describe(title, () => {
    if (process.env.CI === 'true') {
      it('needs Chromium', () => {
        throw new Error(`${hint}; the Debian package is "chromium"`);
      });
    } else {
      it.skip(`skipped: ${hint}`, () => undefined);
    }
  });
}
