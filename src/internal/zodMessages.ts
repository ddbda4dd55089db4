import { en } from 'zod/locales';
import * as z from 'zod/mini';

const english = en().localeError;

/**
 * The parse context for every `safeParse` in llm-rx: zod's English messages. `zod/mini`, unlike
 * `zod`, loads no locale (its issues would all read "Invalid input"); an app that chose a locale
 * with `z.config(…)` keeps it.
 */
export const zodMessages: z.core.ParseContext<z.core.$ZodIssue> = {
  error: (issue) => (z.config().localeError === undefined ? english(issue) : undefined),
};
