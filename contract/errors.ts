// Errors of the contract part: a file of a run folder does not have the format contract/ defines.

import { HedgebenchError } from '../library/index.ts';

/** points.csv (or sim.csv) does not start with the exact header of POINT_COLUMNS. */
export class PointsCsvError extends HedgebenchError {
  constructor(message: string) {
    super('HB_POINTS_CSV_INVALID', message);
  }
}

/** A status.json is not JSON, or not the load generator's status (contract/point-status.ts). */
export class StatusJsonError extends HedgebenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_STATUS_JSON_INVALID', message, options);
  }
}

/** A load generator's point spec (`--spec`) is not JSON, or not a valid point (contract/point-spec.ts). */
export class PointSpecError extends HedgebenchError {
  constructor(
    message: string,
    /** Each bad field with its fix, one line each. */
    readonly issues: readonly string[],
    options?: { cause?: unknown },
  ) {
    super('HB_POINT_SPEC_INVALID', message, options);
  }
}

/** A comparison.csv (or comparison-net.csv) does not have the format of contract/comparison-csv.ts. */
export class ComparisonCsvError extends HedgebenchError {
  constructor(message: string) {
    super('HB_COMPARISON_CSV_INVALID', message);
  }
}

/** A claims.csv does not have the format of contract/claims-csv.ts. */
export class ClaimsCsvError extends HedgebenchError {
  constructor(message: string) {
    super('HB_CLAIMS_CSV_INVALID', message);
  }
}

/** A /work reply is not the target server's reply (contract/work-reply.ts). */
export class WorkReplyError extends HedgebenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_WORK_REPLY_INVALID', message, options);
  }
}
