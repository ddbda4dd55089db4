import { type StreamEvent } from '../events';
import { isTerminal } from '../terminalEvents';
import type { ProviderName } from '../providers/detect';
import { loadCapture } from './capture';
import { describeEvent, paint, type CliOutput } from './render';
import { PACE_MS, decodeCapture, providerOf, type TimedEvent } from './decode';

/** What `llm-rx inspect` reports about one capture. */
export interface CaptureReport {
  capture: string;
  /** The provider streamEvents detected, else the one `--provider` named. */
  provider?: string;
  wireMessages: number;
  messagesRead: number;
  counts: Record<string, number>;
  textChars: number;
  reasoningChars: number;
  /** `unknown-field` / `unknown-event` warnings: the decoder's word for what it did not know. */
  unknown: string[];
  otherWarnings: string[];
  terminal?: StreamEvent;
  /** When the first text / reasoning arrived, at the replay pace (undefined: never). */
  firstTextMs?: number;
  firstReasoningMs?: number;
}

/** `llm-rx inspect`: event counts, unknown fields and event types, the terminal, timings. */
export async function inspectCommand(
  options: { capture: string; provider?: ProviderName; json: boolean },
  output: CliOutput,
): Promise<number> {
  const capture = loadCapture(options.capture);
  const decoded = await decodeCapture(capture, options.provider);
  const report = buildReport(
    capture.name,
    capture.messages.length,
    decoded.messagesRead,
    decoded.events,
  );
  // A stream that failed before any response-start still names the provider it was read as.
  const given = report.provider === undefined ? options.provider : undefined;
  report.provider ??= options.provider;
  if (options.json) {
    output.write(`${JSON.stringify(report)}\n`);
    return 0;
  }
  const chars = (count: number, firstMs: number | undefined) =>
    firstMs === undefined
      ? 'none'
      : `${plural(count, 'character')}, first at ${(firstMs / 1000).toFixed(2)}s (wire message ${firstMs / PACE_MS + 1})`;
  const counts = Object.entries(report.counts)
    .sort(([, a], [, b]) => b - a)
    .map(([type, count]) => `${type} ${count}`)
    .join(' · ');
  const terminal = report.terminal ? describeEvent(report.terminal) : undefined;
  const lines = [
    paint(output, 'bold', `llm-rx inspect ${report.capture}`),
    `provider     ${given ? `${given} (from --provider)` : (report.provider ?? 'not detected')}`,
    `wire         ${plural(report.wireMessages, 'message')}${report.messagesRead < report.wireMessages ? ` (${report.messagesRead} read before the terminal)` : ''}`,
    `events       ${counts}`,
    `text         ${chars(report.textChars, report.firstTextMs)}`,
    `reasoning    ${chars(report.reasoningChars, report.firstReasoningMs)}`,
    `unknown      ${report.unknown.length > 0 ? report.unknown.join('\n             ') : 'nothing'}`,
    `warnings     ${report.otherWarnings.length > 0 ? report.otherWarnings.join('\n             ') : 'none'}`,
    `terminal     ${terminal ? paint(output, terminal.style, terminal.text) : 'none'}`,
  ];
  output.write(`${lines.join('\n')}\n`);
  return 0;
}

/** `1 message`, `2 messages`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * The characters of text the decoder produced (text-delta lengths): what `inspect` reports and
 * what `replay` compares the channel's output with.
 */
export function decodedTextChars(events: TimedEvent[]): number {
  let chars = 0;
  for (const { event } of events) if (event.type === 'text-delta') chars += event.delta.length;
  return chars;
}

/** The report of one decoded capture (pure: tested without files). */
export function buildReport(
  capture: string,
  wireMessages: number,
  messagesRead: number,
  events: TimedEvent[],
): CaptureReport {
  const report: CaptureReport = {
    capture,
    provider: providerOf(events),
    wireMessages,
    messagesRead,
    counts: {},
    textChars: 0,
    reasoningChars: 0,
    unknown: [],
    otherWarnings: [],
  };
  for (const { atMs, event } of events) {
    report.counts[event.type] = (report.counts[event.type] ?? 0) + 1;
    if (event.type === 'text-delta') {
      report.textChars += event.delta.length;
      report.firstTextMs ??= atMs;
    } else if (event.type === 'reasoning-delta') {
      report.reasoningChars += event.delta.length;
      report.firstReasoningMs ??= atMs;
    } else if (event.type === 'warning') {
      const list = event.code.startsWith('unknown-') ? report.unknown : report.otherWarnings;
      list.push(`${event.code}: ${event.message}`);
    } else if (isTerminal(event)) {
      report.terminal = event;
    }
  }
  return report;
}
