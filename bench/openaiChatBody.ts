// A realistic OpenAI chat-completions SSE body for the benchmarks, generated deterministically:
// the same seed gives the same bytes and the same 1–4 KB slices on every machine and run.

import { seededRandom } from '../spec/helpers/seededRandom';

/** What a generated body holds, filled in as it is generated. */
export interface ChatBodyStats {
  /** SSE events written, the usage chunk and `[DONE]` included. */
  events: number;
  /** UTF-8 bytes written. */
  bytes: number;
  /** Characters of `choices[0].delta.content`, summed over every event. */
  textLength: number;
}

/** A body held in memory as the slices a ReadableStream will hand out, plus its text. */
export interface ChatBody {
  slices: Uint8Array[];
  text: string;
  stats: ChatBodyStats;
}

/** Options of {@link chatBodySlices}. */
export interface ChatBodyOptions {
  /** How many bytes to write before the closing chunks (the body is a few hundred bytes longer). */
  targetBytes: number;
  /** Seeds the text and the slice sizes. @defaultValue 1 */
  seed?: number;
  /** Receives every content delta, in order (the in-memory body keeps them to build `text`). */
  onDelta?: (delta: string) => void;
}

const MODEL = 'gpt-4o';
const RESPONSE_ID = 'chatcmpl-AoPmZ2rKq';
const CREATED = 1741569952;
const FINGERPRINT = 'fp_eb9dce56a8';
const MIN_SLICE = 1024;
const MAX_SLICE = 4096;
/** Event strings are encoded in batches of about this many characters (one TextEncoder call each). */
const ENCODE_BATCH = 16 * 1024;

// Prose-like words, plus a few multi-byte ones (about 1 word in 30) so UTF-8 sequences get cut
// at slice boundaries, as they are on the wire.
const WORDS = (
  'the of and to in is that for it as with was on be by this are from at or an have not but ' +
  'stream event token model reply message channel buffer parser operator chunk delta text ' +
  'observable latency provider response request schema value function result error timer'
).split(' ');
const MULTI_BYTE_WORDS = 'café naïve über façade résumé — “quoted” 東京 データ 🙂 ✓'.split(' ');

/** Endless prose: sentences of 6–20 words, paragraphs of 2–5 sentences, as code points. */
function* proseCodePoints(random: () => number): Generator<string> {
  const pick = () => {
    const words = random() < 1 / 30 ? MULTI_BYTE_WORDS : WORDS;
    return words[Math.floor(random() * words.length)];
  };
  for (;;) {
    const sentences = 2 + Math.floor(random() * 4);
    for (let s = 0; s < sentences; s++) {
      const words = 6 + Math.floor(random() * 15);
      let sentence = '';
      for (let w = 0; w < words; w++) sentence += (w === 0 ? '' : ' ') + pick();
      sentence = sentence[0].toUpperCase() + sentence.slice(1) + (random() < 0.1 ? '?' : '.');
      yield* Array.from(sentence + (s < sentences - 1 ? ' ' : ''));
    }
    yield '\n';
    yield '\n';
  }
}

/** Content deltas of 1–8 code points, like a tokenizer's output. */
function* contentDeltas(random: () => number): Generator<string> {
  const prose = proseCodePoints(random);
  for (;;) {
    const length = 1 + Math.floor(random() * 8);
    let delta = '';
    for (let i = 0; i < length; i++) delta += prose.next().value;
    yield delta;
  }
}

function sseChunk(delta: object, finishReason: string | null): string {
  return `data: ${JSON.stringify({
    id: RESPONSE_ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MODEL,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;
}

/** The SSE events of one body: role chunk, content chunks, finish chunk, usage chunk, `[DONE]`. */
function* chatEvents(options: ChatBodyOptions, stats: ChatBodyStats): Generator<string> {
  const random = seededRandom(options.seed ?? 1);
  const emit = (event: string) => {
    stats.events++;
    return event;
  };
  let written = 0;
  const first = sseChunk({ role: 'assistant', content: '' }, null);
  written += first.length;
  yield emit(first);
  for (const delta of contentDeltas(random)) {
    if (written >= options.targetBytes) break;
    options.onDelta?.(delta);
    stats.textLength += delta.length;
    const event = sseChunk({ content: delta }, null);
    written += event.length;
    yield emit(event);
  }
  yield emit(sseChunk({}, 'stop'));
  const completionTokens = stats.events;
  yield emit(
    `data: ${JSON.stringify({
      id: RESPONSE_ID,
      object: 'chat.completion.chunk',
      created: CREATED,
      model: MODEL,
      system_fingerprint: FINGERPRINT,
      choices: [],
      usage: {
        prompt_tokens: 42,
        completion_tokens: completionTokens,
        total_tokens: 42 + completionTokens,
      },
    })}\n\n`,
  );
  yield emit('data: [DONE]\n\n');
}

/**
 * The body as byte slices of 1–4 KB (sizes drawn from the seed), generated lazily: a consumer
 * that drops each slice after reading it keeps memory flat however long the body is.
 */
export function* chatBodySlices(
  options: ChatBodyOptions,
  stats: ChatBodyStats = { events: 0, bytes: 0, textLength: 0 },
): Generator<Uint8Array> {
  const sizes = seededRandom((options.seed ?? 1) ^ 0x51ce);
  const nextSize = () => MIN_SLICE + Math.floor(sizes() * (MAX_SLICE - MIN_SLICE + 1));
  const encoder = new TextEncoder();
  let pending: Uint8Array = new Uint8Array(0);
  let sliceSize = nextSize();
  let batch = '';
  const drain = function* (final: boolean): Generator<Uint8Array> {
    const encoded = encoder.encode(batch);
    batch = '';
    stats.bytes += encoded.length;
    pending = pending.length === 0 ? encoded : concat(pending, encoded);
    while (pending.length >= sliceSize || (final && pending.length > 0)) {
      const size = Math.min(sliceSize, pending.length);
      yield pending.subarray(0, size);
      pending = pending.subarray(size);
      sliceSize = nextSize();
    }
  };
  for (const event of chatEvents(options, stats)) {
    batch += event;
    if (batch.length >= ENCODE_BATCH) yield* drain(false);
  }
  yield* drain(true);
}

/** The whole body in memory (for timing runs, so generating it is not timed). */
export function buildChatBody(targetBytes: number, seed = 1): ChatBody {
  const deltas: string[] = [];
  const stats: ChatBodyStats = { events: 0, bytes: 0, textLength: 0 };
  const slices = [
    ...chatBodySlices({ targetBytes, seed, onDelta: (delta) => deltas.push(delta) }, stats),
  ];
  return { slices, text: deltas.join(''), stats };
}

/** A fresh ReadableStream over the same slices (each run reads its own stream). */
export function streamOfSlices(slices: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < slices.length) controller.enqueue(slices[next++]);
      else controller.close();
    },
  });
}

/** A ReadableStream that generates the body while it is read (nothing held but the current slice). */
export function generatedChatStream(
  options: ChatBodyOptions,
  stats: ChatBodyStats,
  /** Called before each slice is generated (the memory probe samples here). */
  onPull?: () => void,
): ReadableStream<Uint8Array> {
  const slices = chatBodySlices(options, stats);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      onPull?.();
      const { done, value } = slices.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
}

/** A `fetch` stand-in for the peers: every call answers 200 text/event-stream with `body()`. */
export function mockFetch(body: () => ReadableStream<Uint8Array>): typeof fetch {
  return async () =>
    new Response(body(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
