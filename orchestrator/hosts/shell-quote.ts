// POSIX sh quoting for the one place a shell is unavoidable: ssh joins the remote command into a string.

/** Characters that never need quoting in POSIX sh (no expansion, no word splitting, no globbing). */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one argument so a POSIX shell reads it back as exactly that one word: single quotes make every
 * character literal, and a single quote itself is written as '"'"' (close, quoted quote, reopen).
 * NUL cannot be passed through argv at all, so it is refused rather than silently truncated.
 */
export function shellQuote(arg: string): string {
  if (arg.includes('\0'))
    throw new TypeError('shellQuote: an argument contains a NUL byte, which no shell can pass');
  if (arg !== '' && SAFE_WORD.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'"'"'`)}'`;
}

/** Quotes every argument and joins them with spaces: the remote command line for argv. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
