import { type StreamEvent } from '../events';
import { isTerminal } from '../terminalEvents';
import type { TimedEvent } from './decode';

/** Where the CLI writes, and what the terminal can do. */
export interface CliOutput {
  write(text: string): void;
  /** ANSI colours (a TTY without NO_COLOR). */
  color: boolean;
  /** A TTY: show a progress line while a replay waits. */
  interactive: boolean;
  /** Terminal width, for the demo's columns. */
  columns: number;
}

const ANSI = {
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  cyan: '\x1b[36m',
  reset: '\x1b[0m',
};
export type Style = keyof typeof ANSI;

/** `text` in `style` when colours are on. */
export function paint(output: CliOutput, style: Style, text: string): string {
  return output.color && text !== '' ? `${ANSI[style]}${text}${ANSI.reset}` : text;
}

/** `1.24s`, right-aligned, for the time column. */
export function formatTime(atMs: number): string {
  return `${(atMs / 1000).toFixed(2)}s`.padStart(8);
}

/** One `--json` line: the event with its replay time first. */
export function jsonLine({ atMs, event }: TimedEvent): string {
  return `${JSON.stringify({ atMs, ...event })}\n`;
}

/** A one-line description of an event that is not text (null: not worth a line). */
export function describeEvent(event: StreamEvent): { style: Style; text: string } | null {
  switch (event.type) {
    case 'response-start':
      return {
        style: 'dim',
        text: `response-start ${event.provider}${event.model ? ` · ${event.model}` : ''}`,
      };
    case 'tool-input-start':
      return { style: 'cyan', text: `tool ${event.name} starts` };
    case 'tool-call':
      return {
        style: 'cyan',
        text: `tool-call ${event.name}(${shorten(event.inputText, 60)})${event.error ? ` ✗ ${event.error}` : ''}`,
      };
    case 'reasoning-end':
      if (!event.signature && !event.redacted) return null;
      return {
        style: 'dim',
        text: `reasoning ${event.index} ends${event.signature ? ' · signed' : ''}${event.redacted ? ` · ${event.redacted.length} redacted` : ''}`,
      };
    case 'usage':
      return {
        style: 'dim',
        text: `usage ${Object.entries(event)
          .filter(([key]) => key !== 'type')
          .map(([key, value]) => `${key} ${value}`)
          .join(' · ')}`,
      };
    case 'finish':
      return {
        style: 'dim',
        text: `finish ${event.reason}${event.raw && event.raw !== event.reason ? ` (${event.raw})` : ''}`,
      };
    case 'warning':
      return { style: 'yellow', text: `! ${event.code}: ${shorten(event.message, 120)}` };
    case 'silent':
      return { style: 'yellow', text: `∅ silent (${event.token}): the channel sends nothing` };
    case 'completed':
      return {
        style: 'green',
        text: `✓ completed${event.finishReason ? ` (${event.finishReason})` : ''}`,
      };
    case 'incomplete':
      return { style: 'yellow', text: `… incomplete ${event.reason}: ${event.message}` };
    case 'failed':
      return {
        style: 'red',
        text: `✗ failed ${event.error.code}: ${shorten(event.error.message, 160)}`,
      };
    default:
      return null;
  }
}

/**
 * The human view of a replay: each block with its time, deltas (web) streamed inline with
 * reasoning dimmed, one line per other event worth seeing. On a TTY, a progress line is drawn
 * while the replay waits, and cleared before anything is written.
 */
export function createReplayRenderer(output: CliOutput, totalMs: number) {
  let inline: 'text' | 'reasoning' | undefined;
  let progressShown = false;

  const clearProgress = () => {
    if (progressShown) output.write('\r\x1b[2K');
    progressShown = false;
  };
  const endInline = () => {
    if (inline !== undefined) output.write('\n');
    inline = undefined;
  };
  const line = (atMs: number, style: Style, text: string) =>
    output.write(`${paint(output, 'dim', formatTime(atMs))}  ${paint(output, style, text)}\n`);

  return {
    show({ atMs, event }: TimedEvent) {
      clearProgress();
      if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
        const kind = event.type === 'text-delta' ? 'text' : 'reasoning';
        if (inline !== kind) {
          endInline();
          output.write(
            `${paint(output, 'dim', formatTime(atMs))}  ${kind === 'reasoning' ? paint(output, 'dim', 'thinking: ') : ''}`,
          );
          inline = kind;
        }
        output.write(paint(output, kind === 'reasoning' ? 'dim' : 'reset', event.delta));
        return;
      }
      if (event.type === 'block') {
        endInline();
        line(atMs, 'bold', `▌ block ${event.seq} · ${event.text.length} chars · ${event.reason}`);
        for (const textLine of event.text.split('\n')) output.write(`          │ ${textLine}\n`);
        return;
      }
      const description = describeEvent(event);
      if (!description) return;
      endInline();
      line(atMs, description.style, description.text);
      if (isTerminal(event)) inline = undefined;
    },
    /** Redraws the progress line (TTY only, and only between lines). */
    tick(atMs: number) {
      if (!output.interactive || inline !== undefined) return;
      output.write(
        `\r\x1b[2K${paint(output, 'dim', `⏵ ${formatTime(atMs).trim()} / ${formatTime(totalMs).trim()}`)}`,
      );
      progressShown = true;
    },
    end() {
      clearProgress();
      endInline();
    },
  };
}

function shorten(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
