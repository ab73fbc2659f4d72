// A command-line option whose text a model rule parses (`--seed 1-12`, `--time-scale auto`): the error names
// the flag, what it accepts and the text received, in the command's own error class.

/** `parse(raw)`, or undefined when the option is absent; throws `error(…)` when the text is not accepted. */
export function parsedOption<T>(
  flag: string,
  raw: string | undefined,
  parse: (text: string) => T | null,
  accepts: string,
  error: (message: string) => Error,
): T | undefined {
  if (raw === undefined) return undefined;
  const v = parse(raw);
  if (v === null) throw error(`--${flag} must be ${accepts}, got ${raw}`);
  return v;
}
