import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The Chromium the e2e specs drive: `CHROMIUM_PATH`, else `chromium` or `chromium-browser` on
 * the PATH (Debian's package `chromium`, which `.ci/run` installs when it is missing).
 */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const path = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (path) return path;
    } catch {
      // not on the PATH: try the next name
    }
  }
  return undefined;
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
