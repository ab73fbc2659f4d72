// Whole-number command-line options (`--calls`, `--seed`, `--threads`) read from their text, so an error
// can echo what was typed (`abc`), not what a number conversion made of it (`NaN`).

/** The option's value as a whole number in [min, max], or null when its text is not one. */
export function wholeNumber(raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | null {
  const text = String(raw).trim();
  if (!/^[+-]?\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}
