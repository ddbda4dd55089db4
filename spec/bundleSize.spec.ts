import { BROWSER_BUNDLE_GZIP_BOUND, measureBundle } from './helpers/bundleSize';

// What a browser page pays for `streamEvents` + `channel` (esbuild, minified): a bound, not a
// benchmark. zod is used through `zod/mini` with the English locale only; the classic `zod`
// entry (every method on every schema, 440 KB) must not come back by a stray `import { z }`.

describe('browser bundle of streamEvents + channel', () => {
  it('stays within its gzip bound (56 KB), with zod/mini and only the English locale', async () => {
    const size = await measureBundle();
    expect(size.gzip).toBeLessThanOrEqual(BROWSER_BUNDLE_GZIP_BOUND);
    const zodFiles = size.inputs.filter((path) => path.includes('node_modules/zod/'));
    expect(zodFiles.filter((path) => path.includes('/classic/'))).toEqual([]);
    expect(zodFiles.filter((path) => path.includes('/locales/'))).toEqual([
      expect.stringMatching(/zod\/v4\/locales\/en\.js$/),
    ]);
    expect(zodFiles.some((path) => path.includes('/v4/mini/'))).toBe(true);
  });
});
