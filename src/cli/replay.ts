import { channelPresets, type ChannelName } from '../channels/presets';
import type { ProviderName } from '../providers/detect';
import { loadCapture } from './capture';
import { decodedTextChars, plural } from './inspect';
import { createReplayRenderer, jsonLine, paint, type CliOutput } from './render';
import { channelTimeline, createChannelReplay } from './channelTimeline';
import {
  PACE_MS,
  decodeCapture,
  decodeCaptureInto,
  playTimeline,
  providerOf,
  type TimedEvent,
} from './decode';

/** Options of `llm-rx replay`. */
export interface ReplayOptions {
  capture: string;
  provider?: ProviderName;
  channel: ChannelName;
  speed: number;
  json: boolean;
}

/**
 * `llm-rx replay`: what a channel's users would receive from a capture, and when.
 * `--json` prints each event of the channel's output as one line `{"atMs":…, …event}`.
 * Exit code 1 when the stream ends `failed` (so a script can tell), else 0.
 */
export async function replayCommand(options: ReplayOptions, output: CliOutput): Promise<number> {
  const capture = loadCapture(options.capture);
  if (options.json && options.speed === 0) {
    // As fast as possible: each decoded event goes through the channel and out at once, so
    // time and memory stay linear and flat in the capture size (nothing is collected).
    let failed = false;
    const replay = createChannelReplay(options.channel, (entry) => {
      if (entry.event.type === 'failed') failed = true;
      output.write(jsonLine(entry));
    });
    await decodeCaptureInto(capture, options.provider, replay.push);
    replay.end();
    return failed ? 1 : 0;
  }
  const decoded = await decodeCapture(capture, options.provider);
  const timeline = channelTimeline(decoded.events, options.channel);
  if (options.json) {
    await playTimeline(timeline, options.speed, (entry) => output.write(jsonLine(entry)));
    return exitCodeOf(timeline);
  }

  const preset = channelPresets[options.channel];
  const provider = providerOf(decoded.events) ?? options.provider ?? 'unknown provider';
  const pace =
    options.speed === 0 ? 'as fast as possible' : `${PACE_MS / options.speed} ms per message`;
  output.write(
    paint(
      output,
      'bold',
      `llm-rx replay ${capture.name} · ${provider} · channel ${options.channel}\n`,
    ) +
      paint(
        output,
        'dim',
        `${plural(decoded.messagesRead, 'wire message')}, ${pace}; times are replay times at ${PACE_MS} ms per message\n`,
      ),
  );
  const totalMs = timeline.length > 0 ? timeline[timeline.length - 1].atMs : 0;
  const renderer = createReplayRenderer(output, totalMs);
  await playTimeline(timeline, options.speed, renderer.show, renderer.tick);
  renderer.end();
  output.write(paint(output, 'dim', `${summarize(decoded.events, timeline, preset.reasoning)}\n`));
  return exitCodeOf(timeline);
}

function exitCodeOf(timeline: TimedEvent[]): number {
  return timeline.some(({ event }) => event.type === 'failed') ? 1 : 0;
}

function summarize(decoded: TimedEvent[], sent: TimedEvent[], reasoning: 'keep' | 'drop'): string {
  const blocks = sent.filter(({ event }) => event.type === 'block');
  const textChars = sent.reduce(
    (sum, { event }) =>
      sum +
      (event.type === 'block'
        ? event.text.length
        : event.type === 'text-delta'
          ? event.delta.length
          : 0),
    0,
  );
  const reasoningChars = decoded.reduce(
    (sum, { event }) => sum + (event.type === 'reasoning-delta' ? event.delta.length : 0),
    0,
  );
  // `inspect` counts the decoded text; the channel's output may differ from it, and says how.
  const decodedChars = decodedTextChars(decoded);
  const parts = [
    blocks.length > 0 ? plural(blocks.length, 'block') : undefined,
    textChars === decodedChars
      ? `${plural(textChars, 'character')} of text sent (all the decoded text, as inspect counts it)`
      : `${plural(textChars, 'character')} of text sent of ${decodedChars} decoded (inspect's count; ` +
        'the channel drops whitespace at block cuts, repeats fence and table header lines, ' +
        'hides silent tokens and think-tag text)',
    reasoningChars > 0
      ? `${reasoningChars} characters of reasoning ${reasoning === 'keep' ? 'shown' : 'hidden'}`
      : undefined,
  ];
  return `— ${parts.filter(Boolean).join(' · ')}`;
}
