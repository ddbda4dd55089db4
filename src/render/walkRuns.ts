import type { Mark, Run } from './blocks';

/** What a format does with the marks of a run: which to show, outermost first. */
export type MarkFilter = (marks: readonly Mark[], text: string) => Mark[];

/** Receives a block's inline content as balanced open/close calls around plain text. */
export interface InlineSink {
  open(mark: Mark): void;
  close(mark: Mark): void;
  text(text: string, marks: readonly Mark[]): void;
}

/** Keeps the first mark of each type (a span nested in one of its own kind adds nothing). */
export function distinctMarks(marks: readonly Mark[]): Mark[] {
  const seen = new Set<Mark['type']>();
  return marks.filter((mark) => !seen.has(mark.type) && (seen.add(mark.type), true));
}

/**
 * Walks `runs` as properly nested spans: a mark that continues from one run to the next stays
 * open; where two runs' marks differ, the inner ones close (innermost first) and the new ones
 * open. Everything opened is closed at the end, so the output is balanced.
 */
export function walkRuns(runs: readonly Run[], filter: MarkFilter, sink: InlineSink): void {
  const open: Mark[] = [];
  for (const run of runs) {
    if (run.text === '') continue;
    const wanted = filter(run.marks, run.text);
    let common = 0;
    while (common < open.length && common < wanted.length && open[common] === wanted[common]) {
      common++;
    }
    while (open.length > common) sink.close(open.pop()!);
    for (const mark of wanted.slice(common)) {
      open.push(mark);
      sink.open(mark);
    }
    sink.text(run.text, wanted);
  }
  while (open.length > 0) sink.close(open.pop()!);
}
