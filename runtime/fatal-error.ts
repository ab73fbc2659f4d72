// The one way a top-level command reports the error that ends it: one line `<program>: CODE: message` on
// stderr, no stack trace (HEDGEBENCH_DEBUG=1 adds it), and the error's own exit code (EXIT_CODES: 2 for a
// usage mistake, 3 for a failed gate, 1 for anything else) — so `hedgebench`, `loadgen.mjs` and
// `target-server.mjs` behave alike.

import { EXIT_CODES } from '../library/index.ts';

/** One line for any error that reaches the top: code and message, never a stack trace. */
function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string; path?: string; syscall?: string };
  if (e && e.code === 'ENOENT' && e.path) {
    return `HB_FILE_MISSING: cannot ${e.syscall ?? 'open'} ${e.path}: no such file or directory; check the path`;
  }
  if (e && (e.code === 'EACCES' || e.code === 'EPERM') && e.path) {
    return `HB_FILE_ACCESS: permission denied on ${e.path}; fix its permissions or choose another path`;
  }
  const code = typeof e?.code === 'string' && e.code.startsWith('HB_') ? `${e.code}: ` : '';
  return `${code}${e?.message ?? String(err)}`;
}

/** The exit status an error ends a command with: its `exitCode` (HedgebenchError), else 1. */
function exitCodeOf(err: unknown): number {
  const c = (err as { exitCode?: unknown } | null)?.exitCode;
  return typeof c === 'number' && Number.isInteger(c) && c > 0 ? c : EXIT_CODES.failed;
}

/** Prints the fatal error of `program` and sets the process's exit status; returns that status. */
export function reportFatal(program: string, err: unknown): number {
  process.stderr.write(`${program}: ${describeError(err)}\n`);
  if (process.env.HEDGEBENCH_DEBUG) process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  const code = exitCodeOf(err);
  process.exitCode = code;
  return code;
}
