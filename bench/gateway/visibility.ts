// What a user sees of a reply, and when. Texts are compared on their letters and digits only
// (every client shows whitespace, markdown markers, MarkdownV2 escapes and entities its own
// way; link targets are not shown), so "visible up to k" means the first k letters and digits
// of the reply are on screen, in order. (A fence's info string is the code block's language:
// shown by no client as text.)

/** The letters and digits of `text`; link targets (`](…)`) and fence lines (```ts) left out. */
export function lettersOf(text: string): string {
  return text
    .replace(/^ {0,3}(?:`{3,}|~{3,})[^\n]*$/gm, '')
    .replace(/\]\((?:[^()\\\s]|\\.)*\)/g, ']')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Length of the common prefix of `a` and `b`. */
export function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** One reply as the world sees it: when each delta went out, and when how much was visible. */
export class ReplyTrace {
  /** letters of the reply, and the letter count up to the end of each delta */
  readonly letters: string;
  readonly upTo: number[];
  readonly sentAt: number[] = [];
  /** (time, letters visible) each time the visible count changed */
  readonly shown: Array<[number, number]> = [];
  private visible = 0;

  constructor(deltas: readonly string[]) {
    this.letters = lettersOf(deltas.join(''));
    let text = '';
    this.upTo = deltas.map((delta) => lettersOf((text += delta)).length);
    // A prefix that ends inside a link target counts letters the whole text drops: keep the
    // counts non-decreasing (each the least of what follows).
    for (let k = this.upTo.length - 2; k >= 0; k--) {
      this.upTo[k] = Math.min(this.upTo[k], this.upTo[k + 1]);
    }
  }

  /** The user now sees `letters` (the letters of everything on screen for this reply). */
  show(at: number, letters: string): void {
    const visible = commonPrefix(letters, this.letters);
    if (visible === this.visible) return;
    this.visible = visible;
    this.shown.push([at, visible]);
  }

  /** Whole: every letter shown, in order, and nothing else after it. */
  get whole(): boolean {
    return this.visible === this.letters.length;
  }

  /**
   * Lags in ms: `delta` = from each delta's send to the first time its letters were visible
   * (deltas without letters are skipped); `update` = for each change on screen, from the send of
   * the newest delta it showed to the change (what the gateway adds to a text it passes on).
   */
  lags(): { delta: number[]; update: number[] } {
    const delta: number[] = [];
    const update: number[] = [];
    let s = 0;
    let before = 0;
    for (let k = 0; k < this.upTo.length; k++) {
      const need = this.upTo[k];
      if (need === before || this.sentAt[k] === undefined) {
        before = need;
        continue;
      }
      before = need;
      while (s < this.shown.length && this.shown[s][1] < need) s++;
      if (s === this.shown.length) break;
      delta.push(this.shown[s][0] - this.sentAt[k]);
    }
    let k = 0;
    for (const [at, visible] of this.shown) {
      // the delta holding the last visible letter
      while (k + 1 < this.upTo.length && this.upTo[k] < visible) k++;
      if (this.sentAt[k] !== undefined) update.push(at - this.sentAt[k]);
    }
    return { delta, update };
  }
}

/** The q-quantile (0..1) of `values` (nearest rank), NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
