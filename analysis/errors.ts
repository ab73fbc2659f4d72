// Errors of the analysis part: a stable code, a message naming the file or field, the value and the fix.

/** Base class of every analysis error. */
export class AnalysisError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AnalysisError';
  }
}

/** The run folder or its manifest.json is missing or not in the expected shape. */
export class RunFolderError extends AnalysisError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_RUN_FOLDER_INVALID', message, options);
    this.name = 'RunFolderError';
  }
}

/** A raw file (calls.csv, attempts.csv, status.json) cannot be read as its format says. */
export class RawFileError extends AnalysisError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_RAW_FILE_INVALID', message, options);
    this.name = 'RawFileError';
  }
}

/** An argument of an analysis function is out of its domain (e.g. a percentile outside (0, 100)). */
export class AnalysisArgumentError extends AnalysisError {
  constructor(message: string) {
    super('HB_ANALYSIS_ARGUMENT', message);
    this.name = 'AnalysisArgumentError';
  }
}
