// Where text may be cut for a length limit: the one rule of the chunker, the message-edit
// planner and the message layout. A UTF-16 pair is one character (an emoji); half of one is not.

/** True when a cut at offset `at` of `text` would leave a high surrogate without its other half. */
export function cutsSurrogatePair(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  return before >= 0xd800 && before <= 0xdbff;
}

/** `text` with every lone surrogate replaced by U+FFFD (a chat API cannot carry half a pair). */
export function toWellFormed(text: string): string {
  return text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
}
