// Whole-number command-line options (`--calls`, `--lanes`, `--threads`) read from their text, so an error
// can echo what was typed (`abc`), not what a number conversion made of it (`NaN`).

import { parsedOption } from './parsed-option.ts';

/** The option's value as a whole number in [min, max], or null when its text is not one. */
function wholeNumber(raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | null {
  const text = String(raw).trim();
  if (!/^[+-]?\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/**
 * A whole-number option of a command, or undefined when absent. `error` builds the command's own error
 * from a message that names the flag, the range, what it is for and the text received.
 */
export function wholeNumberOption(
  flag: string,
  raw: string | undefined,
  min: number,
  what: string,
  error: (message: string) => Error,
): number | undefined {
  return parsedOption(flag, raw, (t) => wholeNumber(t, min), `a whole number ≥ ${min} (${what})`, error);
}
