import type { SseMessage } from '../../src/source/fromSse';
import { utf8 } from '../helpers/bytes';

// The table of spec/source/sseConformance.spec.ts: the WHATWG "event stream interpretation"
// rules and the web-platform-tests `eventsource/format-*` streams. Bodies are the WPT messages
// with the line ends the WPT server adds after them; "llm-rx:" cases pin our EOF rule.

/** One conformance case: the body's bytes and exactly what fromSse must report for them. */
export interface ConformanceCase {
  name: string;
  body: Uint8Array;
  expected: SseMessage[];
  /** `retry` values the stream announced (onRetry), in order. */
  retries?: number[];
  /** How many `truncated-event` warnings the stream reports. */
  truncated?: number;
  /** Also cut at every single byte offset (for multi-byte UTF-8). */
  everyOffset?: boolean;
}

const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...utf8(part)] : part)));
const BOM = [0xef, 0xbb, 0xbf];
const twoKb = 'x'.repeat(2048);

export const cases: ConformanceCase[] = [
  // BOM
  {
    name: 'format-bom: one leading BOM is stripped; a BOM mid-stream is part of the field name',
    body: bytes(BOM, 'data:1\n\n', BOM, 'data:2\n\ndata:3\n\n\n'),
    expected: [{ data: '1' }, { data: '3' }],
  },
  {
    name: 'format-bom-2: of a double BOM only the first is stripped, the first event is lost',
    body: bytes(BOM, BOM, 'data:1\n\ndata:2\n\ndata:3\n\n\n'),
    expected: [{ data: '2' }, { data: '3' }],
  },
  {
    name: 'a BOM-less stream starting with a U+FEFF character inside data keeps it',
    body: bytes('data:\uFEFFx\n\n'),
    expected: [{ data: '\uFEFFx' }],
  },
  // comments
  {
    name: 'format-comments: comments with NUL, CR, CRLF and 2 KB comment lines',
    body: bytes(`data:1\r:\0\n:\r\ndata:2\n:${twoKb}\rdata:3\n:data:fail\r:${twoKb}\ndata:4\n\n`),
    expected: [{ data: '1\n2\n3\n4' }],
  },
  {
    name: 'OpenRouter keep-alive comments between events',
    body: bytes(': OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\ndata: {"a":1}\n\n'),
    expected: [{ data: '{"a":1}' }],
  },
  {
    name: 'a stream of only keep-alive comments yields nothing',
    body: bytes(': OPENROUTER PROCESSING\n\n:\n\n: ping\r\n\r\n'),
    expected: [],
  },
  { name: 'an empty body yields nothing', body: bytes(''), expected: [] },
  // line ends
  {
    name: 'LF line ends',
    body: bytes('data:a\ndata:b\n\ndata:c\n\n'),
    expected: [{ data: 'a\nb' }, { data: 'c' }],
  },
  {
    name: 'CRLF line ends',
    body: bytes('data:a\r\ndata:b\r\n\r\ndata:c\r\n\r\n'),
    expected: [{ data: 'a\nb' }, { data: 'c' }],
  },
  {
    name: 'CR line ends, the stream ending on a bare CR',
    body: bytes('data:a\rdata:b\r\rdata:c\r\r'),
    expected: [{ data: 'a\nb' }, { data: 'c' }],
  },
  {
    name: 'format-newlines: CRLF, LF and CR mixed',
    body: bytes('data:test\r\ndata\ndata:test\r\n\r\n'),
    expected: [{ data: 'test\n\ntest' }],
  },
  {
    name: 'a bare CR at the very end ends the line, completing a JSON event',
    body: bytes('data:{"a":1}\r'),
    expected: [{ data: '{"a":1}' }],
  },
  {
    name: 'a bare CR at the very end after a non-JSON line: the unterminated event is dropped',
    body: bytes('data:1\n\ndata:x\r'),
    expected: [{ data: '1' }],
    truncated: 1,
  },
  {
    name: 'blank lines before the first field dispatch nothing',
    body: bytes('\n\n\r\n\rdata:x\n\n'),
    expected: [{ data: 'x' }],
  },
  // fields
  {
    name: 'format-field-data: "data:" is empty data, "data" without colon adds an empty line',
    body: bytes('data:\n\ndata\ndata\n\ndata:test\n\n\n'),
    expected: [{ data: '' }, { data: '\n' }, { data: 'test' }],
  },
  {
    name: 'format-leading-space: only one leading space is stripped, a tab is kept',
    body: bytes('data:\ttest\rdata: \ndata:test\n\n\n'),
    expected: [{ data: '\ttest\n\ntest' }],
  },
  {
    name: 'only one of several leading spaces is stripped',
    body: bytes('data:  two\n\nevent:   three\ndata:x\n\n'),
    expected: [{ data: ' two' }, { event: '  three', data: 'x' }],
  },
  {
    name: 'format-field-unknown: unknown fields and lines without colon are ignored',
    body: bytes(
      'data:test\n data\ndata\nfoobar:xxx\njustsometext\n:thisisacommentyay\ndata:test\n\n\n',
    ),
    expected: [{ data: 'test\n\ntest' }],
  },
  {
    name: 'field names are case-sensitive: Data:, EVENT: and Id: are unknown fields',
    body: bytes('Data:x\nEVENT:ping\nId:9\ndata:y\n\nData:only\n\n'),
    expected: [{ data: 'y' }],
  },
  {
    name: 'format-field-parsing: NUL, CR inside lines, near-miss field names',
    body: bytes(
      'data:\0\ndata:  2\rData:1\ndata\0:2\ndata:1\r\0data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n data:32\ndata:4\n\n',
    ),
    expected: [{ data: '\0\n 2\n1\n3\n\n4' }],
  },
  {
    name: 'format-null-character: a NUL is data',
    body: bytes('data:\0\n\n\n'),
    expected: [{ data: '\0' }],
  },
  {
    name: 'a field name with a trailing space is unknown; a colon inside the value is kept',
    body: bytes('data :x\ndata: a:b: c\n\n'),
    expected: [{ data: 'a:b: c' }],
  },
  {
    name: 'multi-line data keeps trailing empty data lines (only the last LF is removed)',
    body: bytes('data:a\ndata:\ndata:\n\ndata\ndata\ndata\n\n'),
    expected: [{ data: 'a\n\n' }, { data: '\n\n' }],
  },
  {
    name: 'format-data-before-final-empty-line: an unterminated non-JSON event is dropped',
    body: bytes('retry:1000\ndata:test1\n\nid:test\ndata:test2\n'),
    expected: [{ data: 'test1' }],
    retries: [1000],
    truncated: 1,
  },
  {
    name: 'llm-rx: an unterminated final event whose data is complete JSON (or [DONE]) is kept',
    body: bytes('data: {"a":1}\n\ndata: [DONE]'),
    expected: [{ data: '{"a":1}' }, { data: '[DONE]' }],
  },
  {
    name: 'llm-rx: an unterminated final event cut inside JSON is dropped and reported',
    body: bytes('data: {"a":1}\n\ndata: {"b":'),
    expected: [{ data: '{"a":1}' }],
    truncated: 1,
  },
  // event
  {
    name: 'format-field-event: a custom event name applies to its own event only',
    body: bytes('event:test\ndata:x\n\ndata:x\n\n\n'),
    expected: [{ event: 'test', data: 'x' }, { data: 'x' }],
  },
  {
    name: 'format-field-event-empty: an empty event name is the default (no `event`)',
    body: bytes('event: \ndata:data\n\nevent\ndata:d2\n\n\n'),
    expected: [{ data: 'data' }, { data: 'd2' }],
  },
  {
    name: 'an event name without data dispatches nothing and does not leak into the next event',
    body: bytes('event:ping\n\ndata:x\n\n'),
    expected: [{ data: 'x' }],
  },
  // id
  {
    name: 'format-field-id-3: the last event ID persists across events until changed',
    body: bytes('id: 1\ndata: 1\n\ndata: 2\n\nid: 2\ndata:3\n\ndata:4\n\n'),
    expected: [
      { id: '1', data: '1' },
      { id: '1', data: '2' },
      { id: '2', data: '3' },
      { id: '2', data: '4' },
    ],
  },
  {
    // Known deviation, documented on fromSse: WHATWG would give both messages the id of the
    // data-less event before them, but eventsource-parser reports an id only with an event.
    name: 'deviation: an id on an event without data is not remembered',
    body: bytes('id: 5\ndata: x\n\nid: 6\n\n: ping\n\ndata: y\n\n'),
    expected: [
      { id: '5', data: 'x' },
      { id: '5', data: 'y' },
    ],
  },
  {
    name: 'format-field-id-3: an empty id resets the last event ID',
    body: bytes('id: 1\ndata: 1\n\nid:\ndata:2\n\ndata:3\n\n'),
    expected: [{ id: '1', data: '1' }, { data: '2' }, { data: '3' }],
  },
  {
    name: 'format-field-id-3: "id" without colon resets the last event ID',
    body: bytes('id: 1\ndata: 1\n\nid\ndata:2\n\ndata:3\n\n'),
    expected: [{ id: '1', data: '1' }, { data: '2' }, { data: '3' }],
  },
  {
    name: 'format-field-id-null: an id containing NUL is ignored (and keeps the previous id)',
    body: bytes(
      'id: \0\0\ndata: hello\n\nid: x\0\ndata: hello\n\nid: 7\ndata: a\n\n' +
        'id: \0x\ndata: b\n\nid: x\0x\ndata: c\n\nid:  \0\ndata: d\n\n',
    ),
    expected: [
      { data: 'hello' },
      { data: 'hello' },
      { id: '7', data: 'a' },
      { id: '7', data: 'b' },
      { id: '7', data: 'c' },
      { id: '7', data: 'd' },
    ],
  },
  {
    name: 'format-field-id: a non-ASCII id is kept',
    body: bytes('id: …\nretry: 200\ndata: hello\n\n'),
    expected: [{ id: '…', data: 'hello' }],
    retries: [200],
  },
  // retry
  {
    name: 'format-field-retry: leading zeros are decimal',
    body: bytes('retry:03000\ndata:x\n\n\n'),
    expected: [{ data: 'x' }],
    retries: [3000],
  },
  {
    name: 'format-field-retry-bogus: a value with a non-digit (or a second space) is ignored',
    body: bytes('retry:3000\nretry:1000x\nretry:  12\nretry:-1\nretry: 7\ndata:x\n\n\n'),
    expected: [{ data: 'x' }],
    retries: [3000, 7],
  },
  {
    name: 'format-field-retry-empty: "retry" without value is ignored',
    body: bytes('retry\nretry:\ndata:test\n\n\n'),
    expected: [{ data: 'test' }],
  },
  // UTF-8
  {
    name: 'format-utf-8: multi-byte UTF-8 survives a cut at every byte offset',
    body: bytes('event: ünï\ndata: héllo 👋 日本語 …\nid: ✓\n\n'),
    expected: [{ event: 'ünï', data: 'héllo 👋 日本語 …', id: '✓' }],
    everyOffset: true,
  },
  {
    name: 'invalid UTF-8 bytes become U+FFFD',
    body: bytes(
      'data: a',
      [0xff],
      ' b',
      [0xc3],
      '\ndata: ',
      [0xe2, 0x82],
      'c',
      [0xed, 0xa0, 0x80],
      '\n\n',
    ),
    expected: [{ data: 'a\uFFFD b\uFFFD\n\uFFFDc\uFFFD\uFFFD\uFFFD' }],
  },
  {
    name: 'a multi-byte character cut off by EOF becomes U+FFFD (and the tail is not JSON)',
    body: bytes('data:{"a":"é"}\n\ndata:"x', [0xe2, 0x82]),
    expected: [{ data: '{"a":"é"}' }],
    truncated: 1,
  },
];
