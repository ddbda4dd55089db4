import type { ChannelName } from '../channels/presets';
import { renderMarkdown } from '../render/renderMarkdown';
import { isTerminal } from '../terminalEvents';
import { CliUsageError } from './args';
import { loadCapture, type Capture } from './capture';
import { describeEvent, formatTime, paint, type CliOutput, type Style } from './render';
import { channelTimeline } from './channelTimeline';
import { decodeCapture, playTimeline, type TimedEvent } from './decode';
import { deliverCutStream } from './demoCutStream';
import { findPackageFile } from './packageFiles';

/** The capture `llm-rx demo` replays, shipped in the package's `fixtures/demo/`. */
export const DEMO_CAPTURE = 'fixtures/demo/openrouter-reasoning-markdown.sse';

/** One printed row of the demo: a line in the left (web) or right (telegram) column. */
interface DemoRow {
  atMs: number;
  side: 0 | 1;
  text: string;
  style: Style;
}

const SIDES: Array<{ channel: ChannelName; title: string }> = [
  { channel: 'web', title: 'web: deltas as they come, reasoning dimmed' },
  { channel: 'telegram', title: 'telegram: blocks of 800-4096 as the chat shows them' },
];

/** `llm-rx demo`: the shipped capture through two channels, side by side, as time passes. */
export async function demoCommand(options: { speed: number }, output: CliOutput): Promise<number> {
  const capture = loadCapture(findDemoCapture());
  const decoded = await decodeCapture(capture);
  const width = Math.max(30, Math.floor((output.columns - 13) / 2));
  const rows = SIDES.flatMap(({ channel }, side) =>
    rowsOf(channelTimeline(decoded.events, channel), side as 0 | 1, width, output.color),
  ).sort((a, b) => a.atMs - b.atMs || a.side - b.side);

  const cell = (text: string, style: Style) => paint(output, style, text.padEnd(width));
  output.write(
    `${paint(output, 'bold', `llm-rx demo · ${capture.name} (OpenRouter-style, reasoning + markdown)`)}\n` +
      `${' '.repeat(8)} │ ${cell(SIDES[0].title, 'bold')} │ ${paint(output, 'bold', SIDES[1].title)}\n`,
  );
  let last = { time: '', side: -1 };
  await playTimeline(rows, options.speed, ({ atMs, side, text, style }) => {
    // The time is shown when it changes, and on the first row after the other column spoke.
    const time = formatTime(atMs);
    const repeated = time === last.time && side === last.side;
    const shownTime = repeated ? ' '.repeat(8) : paint(output, 'dim', time);
    last = { time, side };
    const left = side === 0 ? cell(text, style) : ' '.repeat(width);
    const right = side === 1 ? paint(output, style, text) : '';
    output.write(`${shownTime} │ ${left} │ ${right}\n`);
  });
  await showCutStream(capture, output);
  output.write(
    paint(output, 'dim', 'Replay any capture: llm-rx replay <file.sse> --channel telegram\n'),
  );
  return 0;
}

/** The same capture cut mid-answer: what the Telegram chat ends with, notice included. */
async function showCutStream(capture: Capture, output: CliOutput): Promise<void> {
  const cut = await deliverCutStream(capture);
  output.write(
    `\n${paint(output, 'bold', `The same answer cut after ${cut.kept} of ${cut.of} wire messages (the connection dropped):`)}\n`,
  );
  for (const [index, text] of cut.messages.entries()) {
    output.write(`${paint(output, 'bold', `▌ telegram message ${index + 1}`)}\n${text}\n`);
  }
  const { outcome, reason, messages, delivered } = cut.answer;
  output.write(
    paint(
      output,
      'dim',
      `answer report: ${JSON.stringify({ outcome, reason, messages, delivered })}\n`,
    ) + '\n',
  );
}

/** Marks reasoning rows when colours are off (a pipe, a file): dimming is not there to see. */
const REASONING_MARK = '┆ ';

/**
 * A channel's output as column rows: text wrapped to `width`, blocks with a header line,
 * reasoning dimmed (with colours) or marked with {@link REASONING_MARK} (without).
 */
function rowsOf(timeline: TimedEvent[], side: 0 | 1, width: number, color: boolean): DemoRow[] {
  const rows: DemoRow[] = [];
  const push = (atMs: number, text: string, style: Style) => {
    const mark = style === 'dim' && !color ? REASONING_MARK : '';
    for (const piece of wrap(text, width - mark.length)) {
      rows.push({ atMs, side, text: mark + piece, style });
    }
  };
  // Deltas are gathered into lines; a line shows when its newline arrives or it fills the column.
  let pending = { text: '', style: 'reset' as Style };
  const flushPending = (atMs: number, evenIfEmpty = false) => {
    if (pending.text !== '' || evenIfEmpty) push(atMs, pending.text, pending.style);
    pending = { text: '', style: pending.style };
  };
  const showFullLines = (atMs: number) => {
    const lineWidth = pending.style === 'dim' && !color ? width - REASONING_MARK.length : width;
    while (pending.text.length > lineWidth) {
      const [first, ...rest] = wrap(pending.text, lineWidth);
      push(atMs, first, pending.style);
      pending.text = rest.join(' ');
    }
  };
  for (const { atMs, event } of timeline) {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
      const style: Style = event.type === 'reasoning-delta' ? 'dim' : 'reset';
      if (style !== pending.style) flushPending(atMs);
      pending.style = style;
      const lines = event.delta.split('\n');
      lines.forEach((piece, index) => {
        pending.text += piece;
        if (index < lines.length - 1) flushPending(atMs, true);
      });
      showFullLines(atMs);
      continue;
    }
    flushPending(atMs);
    if (event.type === 'block') {
      push(atMs, `▌ block ${event.seq} · ${event.text.length} chars · ${event.reason}`, 'bold');
      // What Telegram shows: the text its entities format, no markdown markers.
      const shown = renderMarkdown(event.text, 'telegram').map((message) => message.plain);
      for (const line of shown.join('\n').split('\n')) push(atMs, line, 'reset');
      continue;
    }
    const description = describeEvent(event);
    if (description && (isTerminal(event) || event.type === 'silent' || event.type === 'warning')) {
      push(atMs, description.text, description.style);
    }
  }
  flushPending(timeline.length > 0 ? timeline[timeline.length - 1].atMs : 0);
  return rows;
}

/**
 * `text` cut into pieces of at most `width` characters, at the last space that fits: a word is
 * cut only when it alone is wider than the column.
 */
function wrap(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > 0 ? space : width;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, '');
  }
  return [...pieces, rest];
}

function findDemoCapture(): string {
  const path = findPackageFile(DEMO_CAPTURE);
  if (path === undefined) {
    throw new CliUsageError(`the demo capture ${DEMO_CAPTURE} is missing from this install`);
  }
  return path;
}
