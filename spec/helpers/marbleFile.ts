import { z } from 'zod';

/** One parsed `.marble` file (format: marbles/README.md). */
export interface MarbleSpec {
  path: string;
  title: string;
  operator: string;
  args: Record<string, unknown>;
  source?: string;
  hot?: string;
  subs?: string;
  unsub?: string;
  expected: string;
  /** The value `#` stands for, in source and expected (`error: {"code":…,"message":…}`). */
  error?: { code: string; message: string };
  values: Record<string, unknown>;
}

const MarbleHeader = z
  .object({
    operator: z
      .string()
      .regex(/^[A-Za-z][\w-]*$/, 'an operator name from spec/helpers/marbleOperators.ts'),
    args: z.record(z.string(), z.unknown()).default({}),
    source: z.string().optional(),
    hot: z.string().optional(),
    subs: z.string().optional(),
    unsub: z.string().optional(),
    expected: z.string(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .strict()
  .refine((header) => (header.source === undefined) !== (header.hot === undefined), {
    message: 'exactly one of "source" (cold) or "hot" is required',
  });

const JSON_KEYS = new Set(['args', 'error']);

/** Thrown for a malformed file: names the path and, where it can, the offending line. */
export class MarbleFileError extends Error {
  override name = 'MarbleFileError';
}

/** Parses and validates one `.marble` file. */
export function parseMarbleFile(path: string, text: string): MarbleSpec {
  const header: Record<string, unknown> = {};
  const headerLines: Record<string, number> = {};
  const values: Record<string, unknown> = {};
  let title = '';
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const line = raw.trim();
    const fail = (why: string): never => {
      throw new MarbleFileError(`${path}:${lineNumber}: ${why}\n  ${raw}`);
    };
    if (line === '') return;
    if (line.startsWith('#')) {
      if (!title) title = line.replace(/^#+\s*/, '');
      return;
    }
    const valueMatch = /^([A-Za-z0-9])\s*=\s*(.+)$/.exec(line);
    if (valueMatch) {
      const [, name, json] = valueMatch;
      if (name in values) fail(`value "${name}" is defined twice`);
      values[name] = parseJson(json, fail);
      return;
    }
    const keyMatch = /^([a-z]+):\s*(.*)$/.exec(line);
    if (!keyMatch) fail('expected "# title", "key: value" or "x = <JSON>"');
    const [, key, value] = keyMatch!;
    if (key in header) fail(`"${key}" is given twice`);
    header[key] = JSON_KEYS.has(key) ? parseJson(value, fail) : value;
    headerLines[key] = lineNumber;
  });
  if (!title) {
    throw new MarbleFileError(
      `${path}:1: the file must start with a "# title" line\n  ${lines[0]}`,
    );
  }
  const parsed = MarbleHeader.safeParse(header);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Point at the line that is wrong: an unknown key's own line, the second of source/hot;
    // a key that is missing has no line, so only the path is named.
    let key = String(issue.path[0] ?? '');
    if (issue.code === 'unrecognized_keys') key = issue.keys[0];
    else if (header.source !== undefined && header.hot !== undefined) {
      key = headerLines.source > headerLines.hot ? 'source' : 'hot';
    }
    const where = headerLines[key];
    const why = key && where === undefined ? `"${key}" is missing` : issue.message;
    if (where === undefined) throw new MarbleFileError(`${path}: ${why}`);
    const what =
      issue.code === 'unrecognized_keys' || !issue.path.length ? why : `"${key}": ${why}`;
    throw new MarbleFileError(`${path}:${where}: ${what}\n  ${lines[where - 1]}`);
  }
  return { path, title, values, ...parsed.data };
}

function parseJson(text: string, fail: (why: string) => never): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(`not valid JSON (${(error as Error).message})`);
  }
}
