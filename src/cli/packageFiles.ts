import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Finds a file shipped in the package from src/cli (tsx) or dist (the built CLI), by walking up
 * from this module's folder: no import.meta, so the CJS build works. Undefined when missing.
 */
export function findPackageFile(relativePath: string): string | undefined {
  for (let dir = __dirname, depth = 0; depth < 4; dir = dirname(dir), depth++) {
    const candidate = join(dir, relativePath);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The installed llm-rx version, from its package.json. */
export function packageVersion(): string {
  const path = findPackageFile('package.json');
  const manifest = path ? (JSON.parse(readFileSync(path, 'utf8')) as { version?: string }) : {};
  return manifest.version ?? 'unknown';
}
