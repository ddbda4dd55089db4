import { resumableEvents } from '../../../src/index';
import { createTurnView } from './turnView';

// The web example's page: asks the server to replay a capture, then reads the relayed stream
// with llm-rx's own browser build and renders it. `?capture=<name>` picks the capture,
// `?drop=<k>` has the server cut the first connection after k events, `?gap=<ms>` sets the pace.

const params = new URLSearchParams(location.search);
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const view = createTurnView({
  reasoning: byId<HTMLDetailsElement>('reasoning'),
  reasoningText: byId('reasoning-text'),
  answer: byId('answer'),
  tools: byId('tools'),
  warnings: byId('warnings'),
  status: byId('status'),
});
const status = byId('status');
const stopButton = byId<HTMLButtonElement>('stop');
const picker = byId<HTMLSelectElement>('capture');

async function fillPicker(selected: string | null): Promise<void> {
  const list = (await (await fetch('/api/captures')).json()) as {
    captures: string[];
    default: string;
  };
  for (const name of list.captures) {
    const option = new Option(name, name, false, name === (selected ?? list.default));
    picker.append(option);
  }
  picker.addEventListener('change', () => {
    const next = new URLSearchParams({ capture: picker.value });
    location.search = next.toString();
  });
}

async function run(): Promise<void> {
  const turnQuery = new URLSearchParams();
  for (const key of ['capture', 'gap']) {
    const value = params.get(key);
    if (value !== null) turnQuery.set(key, value);
  }
  const started = await fetch(`/api/turns?${turnQuery}`, { method: 'POST' });
  const turn = (await started.json()) as { id?: string; capture?: string; error?: string };
  if (!started.ok || turn.id === undefined) {
    status.dataset.outcome = 'failed';
    status.textContent = turn.error ?? `The server answered ${started.status}`;
    return;
  }
  document.title = `llm-rx · ${turn.capture}`;

  const stop = new AbortController();
  stopButton.disabled = false;
  // Stop asks the server to stop the recording (POST …/stop → log.stop): the stream then ends
  // `incomplete` `aborted` for this page and every other reader. Only when the server cannot be
  // reached does the page stop reading on its own.
  const stopOnServer = () => {
    stopButton.disabled = true;
    fetch(`/api/turns/${turn.id}/stop`, { method: 'POST' }).then(
      (answer) => answer.ok || stop.abort(),
      () => stop.abort(),
    );
  };
  stopButton.addEventListener('click', stopOnServer, { once: true });
  status.textContent = 'Streaming…';

  const drop = params.get('drop');
  const eventsUrl = `/api/turns/${turn.id}/events${drop === null ? '' : `?drop=${drop}`}`;
  // llm-rx's resumable reader: a lost connection is resumed after the last event received.
  let reconnects = 0;
  resumableEvents(
    (lastEventId, signal) =>
      fetch(eventsUrl, {
        headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
        signal,
        cache: 'no-store',
      }),
    { signal: stop.signal, backoffMs: 250 },
  ).subscribe({
    next: (event) => {
      // A reconnect is announced by a `retry` warning: shown in the status, not as a warning.
      if (event.type === 'warning' && event.code === 'retry') {
        const { lastEventId } = event.detail as { lastEventId: number | null };
        return view.reconnecting(++reconnects, lastEventId ?? -1);
      }
      view.show(event);
    },
    error: (error: unknown) => {
      status.dataset.outcome = 'failed';
      status.textContent = `Failed: ${String(error)}`;
    },
    complete: () => (stopButton.disabled = true),
  });
}

void fillPicker(params.get('capture'));
void run();
