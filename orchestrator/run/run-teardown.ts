// The end of a run, whatever happened: its record closed with the run's exit status, the run lock released,
// and an error that stopped the setup rethrown after saying how to continue (a full disk in words that say
// what to do).

import { ResultsFolderError } from '../errors.ts';
import type { RunRecord } from '../plan/run-record.ts';
import { runExitCode } from './run-exit-code.ts';

/** A run closed: its counts, the status its record closed with, and how to continue it (null: nothing left). */
interface ClosedRun {
  done: number;
  failed: number;
  pending: number;
  exitCode: number;
  resumeCommand: string | null;
}

/** Closes the record and releases the lock, then throws the error that stopped the setup, if one did. */
export function closeRun(
  record: RunRecord,
  release: () => void,
  o: {
    interruptedBy: string | null;
    setupError: unknown;
    dir: string;
    /** The run folder as messages show it (relative to cwd when inside it). */
    shownDir: string;
    say: (text: string) => void;
  },
): ClosedRun {
  let setupError = o.setupError;
  const { done, failed, pending } = record.counts();
  const exitCode = runExitCode(o.interruptedBy, { failed, pending });
  try {
    record.close(exitCode);
  } catch (err) {
    setupError ??= err;
  }
  release();
  const resumeCommand = pending > 0 ? `hedgebench run --resume ${o.shownDir}` : null;
  if (setupError) {
    if (resumeCommand)
      o.say(`hedgebench: nothing more was measured; after fixing the cause, continue with: ${resumeCommand}`);
    throw diskFullError(setupError, o.dir) ?? setupError;
  }
  return { done, failed, pending, exitCode, resumeCommand };
}

/** A clear error for a disk that filled up during the run (the free-space check ran at the start), else null. */
function diskFullError(err: unknown, dir: string): ResultsFolderError | null {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return null;
  return new ResultsFolderError(
    `results folder ${dir}: the disk filled up during the run (${(err as Error).message}); points not finished stay pending: free some space, then continue with --resume ${dir}`,
    { cause: err },
  );
}
