// `npm run bench:quality`: what a reader sees of the blocks, per channel preset. Every real
// capture with a markdown answer (from LLMRX_CORPUS_DIR, decoded by streamEvents, the answer
// read by collectTurn) and the bench's generated markdown (bench/markdown.ts, plain and with
// headings, tables and Chinese) go through channel(name); the blocks are measured against the
// answer text by spec/chunking/blockQuality.ts (line regexes, nothing from src/chunking).
//   LLMRX_CORPUS_DIR=../shared/fixtures/real npm run bench:quality [-- --detail]
// Counts, not times: the run is deterministic (the deltas are replayed synchronously, so no
// idle timer fires: every cut is the chunker's own choice).

import { firstValueFrom, from, lastValueFrom, toArray } from 'rxjs';
import { channel } from '../src/channels/channel';
import { channelNames, channelPresets, type ChannelName } from '../src/channels/presets';
import type { StreamEvent } from '../src/events';
import { streamEvents } from '../src/streamEvents';
import { collectTurn } from '../src/turn/collectTurn';
import { loadCaptures } from '../spec/helpers/corpus';
import { measureBlocks, type BlockQuality } from '../spec/helpers/blockQuality';
import { generateMarkdown, toDeltas } from './markdown';

const GENERATED_SIZE = 100_000;
const MARKDOWN_LINE = /^ {0,3}(#{1,6}[ \t]|\||`{3,}|~{3,}|[-*+][ \t]|\d{1,9}[.)][ \t])/m;

interface Answer {
  name: string;
  text: string;
  events: StreamEvent[];
}

async function captureAnswers(): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const capture of loadCaptures()) {
    const response = new Response(capture.sse, {
      headers: { 'content-type': 'text/event-stream' },
    });
    const events = await lastValueFrom(streamEvents(response).pipe(toArray()));
    const turn = await firstValueFrom(from(events).pipe(collectTurn()));
    if (MARKDOWN_LINE.test(turn.text))
      answers.push({ name: capture.name, text: turn.text, events });
  }
  return answers;
}

function generatedAnswer(name: string, text: string): Answer {
  const events: StreamEvent[] = [
    { type: 'text-start', id: 't' },
    ...toDeltas(text).map((delta): StreamEvent => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'completed', finishReason: 'stop' },
  ];
  return { name, text, events };
}

function blocksOf(answer: Answer, name: ChannelName): string[] {
  const blocks: string[] = [];
  from(answer.events)
    .pipe(channel(name))
    .subscribe((event) => event.type === 'block' && blocks.push(event.text));
  return blocks;
}

type Totals = Omit<BlockQuality, 'mismatch'> & { inputs: number; mismatches: number };

function emptyTotals(): Totals {
  return {
    inputs: 0,
    blocks: 0,
    longest: 0,
    endingWithHeading: 0,
    endingWithListMarker: 0,
    midRowCuts: 0,
    midRowCutsWhereRowsFit: 0,
    cjkMidSentenceCuts: 0,
    headerlessTablePieces: 0,
    headerlessWhereRepeated: 0,
    unbalancedFences: 0,
    mismatches: 0,
  };
}

function add(totals: Totals, quality: BlockQuality): void {
  totals.inputs++;
  totals.blocks += quality.blocks;
  totals.longest = Math.max(totals.longest, quality.longest);
  totals.endingWithHeading += quality.endingWithHeading;
  totals.endingWithListMarker += quality.endingWithListMarker;
  totals.midRowCuts += quality.midRowCuts;
  totals.midRowCutsWhereRowsFit += quality.midRowCutsWhereRowsFit;
  totals.cjkMidSentenceCuts += quality.cjkMidSentenceCuts;
  totals.headerlessTablePieces += quality.headerlessTablePieces;
  totals.headerlessWhereRepeated += quality.headerlessWhereRepeated;
  totals.unbalancedFences += quality.unbalancedFences;
  if (quality.mismatch) totals.mismatches++;
}

const HEAD =
  '| preset | min/max | inputs | blocks | longest / max | end with heading | end with bare list marker | mid-row cuts (rows fit) | headerless table pieces (header fits) | CJK mid-sentence cuts | unbalanced fences | text lost |';

function row(label: string, min: number, max: number, totals: Totals): string {
  const cells = [
    label,
    `${min}/${max}`,
    totals.inputs,
    totals.blocks,
    `${totals.longest} / ${max}`,
    totals.endingWithHeading,
    totals.endingWithListMarker,
    `${totals.midRowCuts} (${totals.midRowCutsWhereRowsFit})`,
    `${totals.headerlessTablePieces} (${totals.headerlessWhereRepeated})`,
    totals.cjkMidSentenceCuts,
    totals.unbalancedFences,
    totals.mismatches,
  ];
  return `| ${cells.join(' | ')} |`;
}

async function main(): Promise<void> {
  const detail = process.argv.includes('--detail');
  const captured = await captureAnswers();
  if (captured.length === 0) {
    console.log('No real captures: LLMRX_CORPUS_DIR is unset or empty (generated markdown only).');
  }
  const answers = [
    ...captured,
    generatedAnswer(`generated ${GENERATED_SIZE / 1000} KB`, generateMarkdown(GENERATED_SIZE)),
    generatedAnswer(
      `generated ${GENERATED_SIZE / 1000} KB, headings/tables/CJK`,
      generateMarkdown(GENERATED_SIZE, 7, true),
    ),
  ];
  console.log(`Inputs (${answers.length}):`);
  for (const answer of answers) console.log(`- ${answer.name}: ${answer.text.length} chars`);
  const presets = channelNames.filter((name) => channelPresets[name].maxChars !== undefined);
  const detailRows: string[] = [];
  console.log(`\n${HEAD}\n${HEAD.replace(/[^|]+/g, '---')}`);
  for (const name of presets) {
    const { minChars = 0, maxChars = 0 } = channelPresets[name];
    const totals = emptyTotals();
    for (const answer of answers) {
      const quality = measureBlocks(answer.text, blocksOf(answer, name), maxChars);
      add(totals, quality);
      if (quality.mismatch) console.error(`${name} ${answer.name}: ${quality.mismatch}`);
      const single = emptyTotals();
      add(single, quality);
      detailRows.push(row(`${name}: ${answer.name}`, minChars, maxChars, single));
    }
    console.log(row(name, minChars, maxChars, totals));
  }
  if (detail)
    console.log(
      `\nPer input:\n\n${HEAD}\n${HEAD.replace(/[^|]+/g, '---')}\n${detailRows.join('\n')}`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
