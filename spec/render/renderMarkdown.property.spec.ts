import fc from 'fast-check';
import { renderMarkdown } from '../../src/render/renderMarkdown';
import type { RenderFormat } from '../../src/render/types';
import { renderMarkdownArbitrary } from './renderArbitrary';
import { renderingProblems } from './renderChecks';

const FORMATS: RenderFormat[] = ['telegram', 'telegram-html', 'slack', 'discord', 'plain'];

describe('renderMarkdown properties (random markdown, 1000 runs per format)', () => {
  for (const format of FORMATS) {
    it(`${format}: within the limit, well-formed, visible text and code blocks conserved`, () => {
      fc.assert(
        fc.property(
          renderMarkdownArbitrary,
          // Small limits force splits inside paragraphs, code blocks and tables.
          fc.option(fc.integer({ min: 64, max: 600 }), { freq: 4 }),
          (markdown, maxLength) => {
            const options = maxLength === null ? undefined : { maxLength };
            const messages = renderMarkdown(markdown, format, options);
            expect(renderingProblems(markdown, format, messages, options?.maxLength)).toEqual([]);
          },
        ),
        { numRuns: 1000, seed: 15 },
      );
    });
  }
});
