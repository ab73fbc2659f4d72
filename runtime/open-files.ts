// How many files this process may open (its RLIMIT_NOFILE soft limit), read from /proc/self/limits on Linux.
//
// Every attempt in flight holds a socket in the load generator and one in the target. A collapsing point
// whose cap is at or above this limit gets EMFILE on new connects before its in-flight count reaches the
// cap, so it never ends as collapsed (docs/running.md, "Lanes: points in parallel"). The load generator
// keeps its cap below this limit instead (loadgen/loadgen-options.ts).

import { readFileSync } from 'node:fs';

/** The soft limit on open files, or null where it cannot be read (not Linux, or "unlimited"). */
export function openFilesLimit(limitsText?: string): number | null {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const m = /^Max open files\s+(\d+)\s/m.exec(text);
  return m === null ? null : Number(m[1]);
}
