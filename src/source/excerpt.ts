/**
 * At most `max` characters of `text`, quoted, with an ellipsis and the full length when cut: how
 * an error message shows a payload (payloads are never logged whole). Lives with the bytes layer,
 * which uses it for bodies that are not streams; the decoders use it for payloads.
 */
export function excerpt(text: string, max = 80): string {
  const oneLine = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${oneLine}… (${text.length} characters)` : oneLine;
}
