// The core of llm-rx as an app uses it, in plain JavaScript that Node, Bun, Deno and workerd all
// run: handed the package (`import` or `require` of the packed tarball) and rxjs, and one capture's
// text, it returns what each step produced, so every runtime's answer can be compared with Node's.

/** The capture as a provider's answer: a fresh Response each call (a body is read once). */
function answerOf(capture) {
  return new Response(capture, { headers: { 'content-type': 'text/event-stream' } });
}

/**
 * Runs streamEvents, channel + toMessageEdits + deliver (an in-memory transport), toSseResponse
 * and resumableEvents (reading that response back) over `capture`.
 */
export async function runCore(llmRx, rxjs, capture) {
  const { streamEvents, channel, toMessageEdits, deliver, toSseResponse, resumableEvents } = llmRx;
  const { lastValueFrom, toArray } = rxjs;
  const all = (observable) => lastValueFrom(observable.pipe(toArray()));
  const opened = () => streamEvents(answerOf(capture), { provider: 'openrouter' });

  const events = await all(opened());

  // A chat app that keeps each message's latest text, as a user would see it.
  const messages = [];
  const transport = {
    minIntervalMs: 0,
    maxMessageChars: 4096,
    send: async (edit) => messages.push(edit.rendered ? edit.rendered.text : edit.text) - 1,
    edit: async (ref, edit) => {
      messages[ref] = edit.rendered ? edit.rendered.text : edit.text;
    },
  };
  const reports = await all(
    opened().pipe(
      channel('telegram'),
      toMessageEdits({ maxMessageChars: 4096, render: 'telegram' }),
      deliver(transport),
    ),
  );
  const answer = reports.filter((report) => report.type === 'answer');

  const sse = await toSseResponse(opened()).text();
  const relayed = await all(resumableEvents(async () => toSseResponse(opened())));

  return { events, delivered: messages, answer, sse, relayed };
}
