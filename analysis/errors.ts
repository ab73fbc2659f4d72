// Errors of the analysis part: a stable code, a message naming the file or field, the value and the fix.

import { EXIT_CODES, HedgebenchError } from '../library/index.ts';

/** Base class of every analysis error. */
class AnalysisError extends HedgebenchError {}

/** The run folder or its manifest.json is missing or not in the expected shape. */
export class RunFolderError extends AnalysisError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_RUN_FOLDER_INVALID', message, options);
  }
}

/** A raw file (calls.csv, attempts.csv, status.json) cannot be read as its format says. */
export class RawFileError extends AnalysisError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_RAW_FILE_INVALID', message, options);
  }
}

/** An argument of an analysis function is out of its domain (e.g. a percentile outside (0, 100)). */
export class AnalysisArgumentError extends AnalysisError {
  constructor(message: string) {
    super('HB_ANALYSIS_ARGUMENT', message);
  }
}

/** `--fail-on` names something that is not a verdict a gate can fail on. */
export class FailOnError extends AnalysisError {
  constructor(message: string) {
    super('HB_FAIL_ON', message);
  }
}

/** Everything was measured and compared, but verdicts named by `failOn` / `--fail-on` occurred. Exit 3. */
export class ThresholdsFailedError extends AnalysisError {
  constructor(message: string) {
    super('HB_THRESHOLDS_FAILED', message, { exitCode: EXIT_CODES.thresholds });
  }
}

/** A command that reads a run folder was not given one. A usage mistake: exit 2. */
export class RunFolderArgumentError extends AnalysisError {
  constructor(command: string) {
    super(
      'HB_USAGE',
      `hedgebench ${command} needs the run folder to read, e.g. \`hedgebench ${command} results/<run>\` (a folder written by \`hedgebench run\`, with its manifest.json)`,
      { exitCode: EXIT_CODES.usage },
    );
  }
}
