// Errors of the analysis part: a stable code, a message naming the file or field, the value and the fix.

import { HedgebenchError } from '../library/index.ts';

/** Base class of every analysis error. */
export class AnalysisError extends HedgebenchError {}

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
