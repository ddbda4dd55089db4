// partialToolInput over every real capture with streamed tool calls (LLMRX_CORPUS_DIR; skipped,
// and saying so, when it is unset): for each call whose input the decoder parsed, the views are
// prefix-consistent and the last one equals the tool-call's input; no warning for valid input.
import { VirtualTimeScheduler, from, lastValueFrom, toArray } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { partialToolInput } from '../../src/operators/partialToolInput';
import type { ProviderName } from '../../src/providers/detect';
import { streamEvents } from '../../src/streamEvents';
import { collect } from '../helpers/bytes';
import { captureBody, describeCorpus, formatOfCapture, responseOfChunks } from '../helpers/corpus';

describeCorpus('partialToolInput over the real captures', (captures) => {
  it('gives every streamed call a last view equal to its tool-call input', async () => {
    let calls = 0;
    for (const capture of captures) {
      const provider = formatOfCapture(capture) as ProviderName;
      // The body as the provider sends it (Bedrock: binary event stream frames).
      const { bytes, contentType } = captureBody(capture);
      const events: StreamEvent[] = await collect(
        streamEvents(responseOfChunks([bytes], contentType), { provider }),
      );
      const streamed = new Set(
        events.flatMap((e) => (e.type === 'tool-input-delta' && e.delta !== '' ? [e.id] : [])),
      );
      const toolCalls = events.filter(
        (e): e is Extract<StreamEvent, { type: 'tool-call' }> =>
          e.type === 'tool-call' && streamed.has(e.id) && e.error === undefined,
      );
      if (toolCalls.length === 0) continue;
      // A virtual clock that never runs: every interval stays open, so only the leading view
      // and the final one before each tool-call go out.
      const out = await lastValueFrom(
        from(events).pipe(partialToolInput({ scheduler: new VirtualTimeScheduler() }), toArray()),
      );
      for (const call of toolCalls) {
        // The view shows what the deltas said; a decoder may resend the whole input elsewhere.
        const text = events
          .flatMap((e) => (e.type === 'tool-input-delta' && e.id === call.id ? [e.delta] : []))
          .join('');
        if (text !== call.inputText) continue;
        const views = out.flatMap((e) =>
          e.type === 'tool-input-partial' && e.id === call.id ? [e.value] : [],
        );
        expect({ capture: capture.name, id: call.id, last: views.at(-1) }).toEqual({
          capture: capture.name,
          id: call.id,
          last: JSON.parse(call.inputText),
        });
        calls++;
      }
      expect(out.filter((e) => e.type === 'warning' && e.code === 'tool-input-invalid')).toEqual(
        [],
      );
    }
    expect(calls).toBeGreaterThan(0);
  });
});
