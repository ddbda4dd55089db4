import fc from 'fast-check';
import { createBlockChunker, type BlockChunkerOptions } from '../../src/chunking/blockChunker';
import { chunkingOptions, deltaSizes, markdown, splitText } from './markdownArbitrary';
import { measureBlocks } from '../helpers/blockQuality';
import { fencesBalanced, hasEmptyCodeBlock, joinMismatch } from '../helpers/markdownChecks';

// Fixed; CHUNKER_SEED explores other seeds by hand.
const SEED = Number(process.env.CHUNKER_SEED ?? 20_260_611);
// Cases per property: 1000; the mutation run makes fewer (spec/helpers/mutationSetup.ts).
const RUNS = Number(process.env.LLMRX_PROPERTY_RUNS ?? 1000);
// Fences stay balanced when maxChars has room for an opener line (≤ 14 characters here), a
// closer and some code; below that, only size, content and order are promised.
const ROOMY = chunkingOptions(40, 240);
const TIGHT = chunkingOptions(16, 39);

/** Every block of `deltas`, with an idle flush after the deltas whose index is in `flushAfter`. */
function chunk(options: BlockChunkerOptions, deltas: string[], flushAfter = new Set<number>()) {
  const chunker = createBlockChunker(options);
  const blocks: string[] = [];
  deltas.forEach((delta, index) => {
    for (const block of chunker.append(delta)) blocks.push(block.text);
    if (flushAfter.has(index)) for (const block of chunker.flush('idle')) blocks.push(block.text);
  });
  for (const block of chunker.end('end')) blocks.push(block.text);
  return blocks;
}

/** Size, no blank block, the input again; with `fences`, balanced and never an empty code block. */
function expectWellFormed(input: string, blocks: string[], maxChars: number, fences: boolean) {
  for (const block of blocks) {
    expect(block.length).toBeLessThanOrEqual(maxChars);
    expect(block.trim()).not.toBe('');
    if (fences) {
      expect({ block, balanced: fencesBalanced(block) }).toEqual({ block, balanced: true });
      expect({ block, emptyCode: hasEmptyCodeBlock(block) }).toEqual({ block, emptyCode: false });
    }
  }
  expect(joinMismatch(input, blocks)).toBeNull();
}

/**
 * What a reader sees (blockQuality.ts, independent of src): no block but the last ends with a
 * heading or a bare list marker; no cut inside a row of a table whose rows all fit; every block
 * holding rows of a table but not its start begins with its header and delimiter rows (when the
 * header takes at most half of maxChars).
 */
function expectReadable(input: string, blocks: string[], maxChars: number) {
  const quality = measureBlocks(input, blocks, maxChars);
  const found = {
    mismatch: quality.mismatch,
    endingWithHeading: quality.endingWithHeading,
    endingWithListMarker: quality.endingWithListMarker,
    midRowCutsWhereRowsFit: quality.midRowCutsWhereRowsFit,
    headerlessWhereRepeated: quality.headerlessWhereRepeated,
  };
  const clean = { ...found, mismatch: null };
  for (const key of Object.keys(clean) as Array<keyof typeof clean>) {
    if (key !== 'mismatch') (clean[key] as number) = 0;
  }
  expect({ blocks, ...found }).toEqual({ blocks, ...clean });
}

describe('createBlockChunker properties (fast-check, fixed seeds)', () => {
  it('mode end: blocks ≤ maxChars, balanced fences, the input again, the same for any deltas', () => {
    fc.assert(
      fc.property(markdown, ROOMY, deltaSizes, (input, options, sizes) => {
        const whole = chunk({ ...options, mode: 'end' }, [input]);
        expect(chunk({ ...options, mode: 'end' }, splitText(input, sizes))).toEqual(whole);
        expectWellFormed(input, whole, options.maxChars, true);
        expectReadable(input, whole, options.maxChars);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('mode stream: the same guarantees, with idle flushes between random deltas', () => {
    fc.assert(
      fc.property(
        markdown,
        ROOMY,
        deltaSizes,
        fc.array(fc.nat(200), { maxLength: 6 }),
        (input, options, sizes, flushPoints) => {
          const deltas = splitText(input, sizes);
          const blocks = chunk({ ...options, mode: 'stream' }, deltas, new Set(flushPoints));
          expectWellFormed(input, blocks, options.maxChars, true);
          expectReadable(input, blocks, options.maxChars);
        },
      ),
      { numRuns: RUNS, seed: SEED + 1 },
    );
  });

  it('tight maxChars (16–39): blocks ≤ maxChars, never blank, the input again, split-invariant in mode end', () => {
    fc.assert(
      fc.property(markdown, TIGHT, deltaSizes, fc.boolean(), (input, options, sizes, stream) => {
        const mode = stream ? 'stream' : 'end';
        const blocks = chunk({ ...options, mode }, splitText(input, sizes));
        if (mode === 'end') expect(blocks).toEqual(chunk({ ...options, mode }, [input]));
        expectWellFormed(input, blocks, options.maxChars, false);
      }),
      { numRuns: RUNS, seed: SEED + 2 },
    );
  });
});
