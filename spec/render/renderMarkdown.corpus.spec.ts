import { firstValueFrom } from 'rxjs';
import { renderMarkdown } from '../../src/render/renderMarkdown';
import type { RenderFormat } from '../../src/render/types';
import { streamEvents } from '../../src/streamEvents';
import { collectTurn } from '../../src/turn/collectTurn';
import { chunksOf, utf8 } from '../helpers/bytes';
import { describeCorpus } from '../helpers/corpus';
import { renderingProblems } from './renderChecks';

const FORMATS: RenderFormat[] = ['telegram', 'telegram-html', 'slack', 'discord', 'plain'];

// Every real capture's answer (decoded by streamEvents, collected by collectTurn) rendered in
// each format, at the default limit and at a small one that forces splits: every property holds.
describeCorpus('renderMarkdown over every real capture', (captures) => {
  it.each(captures.map((capture) => [capture.name, capture] as const))(
    '%s: every format, every property',
    async (_name, capture) => {
      const turn = await firstValueFrom(
        streamEvents(chunksOf([utf8(capture.sse)])).pipe(collectTurn()),
      );
      for (const format of FORMATS) {
        for (const maxLength of [undefined, 200]) {
          const messages = renderMarkdown(turn.text, format, { maxLength });
          expect({
            format,
            maxLength,
            problems: renderingProblems(turn.text, format, messages, maxLength),
          }).toEqual({
            format,
            maxLength,
            problems: [],
          });
          if (turn.text.trim() !== '') expect(messages.length).toBeGreaterThan(0);
        }
      }
    },
  );

  it('the corpus holds answers worth rendering (long markdown with fences and tables)', async () => {
    const texts = await Promise.all(
      captures.map((capture) =>
        firstValueFrom(streamEvents(chunksOf([utf8(capture.sse)])).pipe(collectTurn())).then(
          (turn) => turn.text,
        ),
      ),
    );
    expect(texts.some((text) => text.includes('```') && text.length > 4000)).toBe(true);
    expect(texts.some((text) => /^\|.*\|$/m.test(text))).toBe(true);
  });
});
