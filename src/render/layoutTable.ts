import stringWidth from 'string-width';

/** A GFM table column's alignment. */
export type TableAlign = 'left' | 'right' | 'center';

/**
 * A table as monospace lines: cells padded to their column's display width (CJK and emoji count
 * two columns, from string-width), ` | ` between columns, a `-` rule under the header row.
 *
 * ```
 * Name | Qty
 * -----|----
 * 漢字 |   2
 * ```
 */
export function layoutTable(rows: string[][], align: TableAlign[]): string {
  const cells = rows.map((row) => row.map((cell) => cell.replace(/\s+/g, ' ').trim()));
  const columns = Math.max(align.length, ...cells.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(1, ...cells.map((row) => stringWidth(row[column] ?? ''))),
  );
  const line = (row: string[]) =>
    widths
      .map((width, column) => pad(row[column] ?? '', width, align[column] ?? 'left'))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('-|-');
  const [header, ...body] = cells;
  return [line(header ?? []), rule, ...body.map(line)].join('\n');
}

function pad(cell: string, width: number, align: TableAlign): string {
  const room = width - stringWidth(cell);
  if (align === 'right') return ' '.repeat(room) + cell;
  if (align === 'center') {
    const left = Math.floor(room / 2);
    return ' '.repeat(left) + cell + ' '.repeat(room - left);
  }
  return cell + ' '.repeat(room);
}
