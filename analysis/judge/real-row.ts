// The real side of a point, recomputed from its raw files alone, and the one place the analysis reads
// them: the points.csv row (through the same RowBuilder the simulator uses), the sorted latency sample the
// confidence intervals need, why the point is invalid or collapsed, and the records themselves.

import { existsSync } from 'node:fs';
import {
  type ClientFigures,
  type CollapseEvidence,
  detectCollapse,
  entryConfigName,
  type ManifestPoint,
  OUTCOME_CODE,
  type PointRow,
  RowBuilder,
  type RowContext,
  rawPaths,
} from '../../contract/index.ts';
import {
  countsHedgesOnError,
  type HedgeConfig,
  type Matrix,
  peerCancelCopies,
  pointClients,
  pointModel,
  replicaSetupOf,
  timeScaleOf,
  warmupCalls,
} from '../../model/index.ts';
import { clientFigures } from '../read/client-figures.ts';
import { attemptsInModelTime, callsInModelTime, statusInModelTime } from '../read/model-time.ts';
import {
  type PointStatus,
  type RawAttempts,
  type RawCalls,
  readAttemptsCsv,
  readCallsCsv,
  readStatusJson,
  statusInflightTimelineMs,
  statusSendLagP99,
} from '../read/raw-files.ts';
import { busyByReplica, type ReplicaUse, replicaUse } from '../read/replica-use.ts';
import { learnAttemptsFromServer } from '../read/server-attempts.ts';
import { generatorTimeline, type ServerTimeline, serverTimeline } from '../read/server-timeline.ts';
import { extraServiceShare, type TiedFigures, tiedFigures } from '../read/tied-figures.ts';
import { type Attribution, attribute } from './attribution.ts';
import { fidelityReasons } from './fidelity.ts';
import { stealNote } from './steal.ts';

/**
 * Everything the analysis derives from one real point's raw files, read once and in model time: the
 * comparison, the attribution, sim+net's transport and the report's charts all start from it.
 */
export interface RealPoint {
  row: PointRow;
  /** Latencies (ms) of the measured calls that succeeded, ascending: the sample behind the percentiles. */
  okLatencies: Float64Array;
  calls: RawCalls;
  /** The server's attempt records; null when the point has no attempts file. */
  attempts: RawAttempts | null;
  status: PointStatus | null;
  /** Why `row.valid` is false (the generator's reasons plus the analysis's own); empty when valid. */
  invalidReasons: string[];
  /** Why `row.collapsed` is true; empty when not collapsed. */
  collapseReasons: string[];
  /** Queue and in-flight over the point (server records, or the generator's samples); null when neither exists. */
  timeline: ServerTimeline | null;
  /** The collapse criterion applied to `timeline`; null without a timeline. */
  collapse: CollapseEvidence | null;
  /** Where each ok call's latency went; null without the server's attempt records. */
  attribution: Attribution | null;
  /** Each load generator's figures when several measured the point (`clients: K`); null with one. */
  clients: ClientFigures[] | null;
  /** Each replica's use, when the point has several replicas and their attempt records; else null. */
  replicas: ReplicaUse[] | null;
  /** A tied point's peer cancels and their transits (tied-figures.ts); null for other points. */
  tied: TiedFigures | null;
}

/** True when the point's calls file exists, i.e. its real row can be recomputed from raw files. */
export function hasRawCalls(runDir: string, entry: Pick<ManifestPoint, 'slug'>): boolean {
  return existsSync(rawPaths(runDir, entry.slug).calls);
}

/**
 * A point's measured calls from raw/, in model time (throws RawFileError on a bad file). calls.csv holds only
 * measured calls by contract; the warm-up filter only guards against a writer that forgot it.
 */
export function readMeasuredCalls(
  runDir: string,
  entry: Pick<ManifestPoint, 'slug' | 'calls' | 'dims'>,
  warmupFraction: number,
): RawCalls {
  const all = callsInModelTime(readCallsCsv(rawPaths(runDir, entry.slug).calls), timeScaleOf(entry));
  const warm = warmupCalls({ calls: entry.calls, warmupFraction });
  return filterCalls(all, (i) => all.call[i] >= warm);
}

/** Reads a real point's raw files and derives its row and sample (throws RawFileError on a bad file). */
export function readRealPoint(runDir: string, entry: ManifestPoint, matrix: Matrix): RealPoint {
  const paths = rawPaths(runDir, entry.slug);
  // raw/ is in wall-clock ms; everything below is in model ms (analysis/read/model-time.ts).
  const k = timeScaleOf(entry);
  const calls = readMeasuredCalls(runDir, entry, matrix.warmupFraction);
  const status = statusInModelTime(readStatusJson(paths.status), k);
  const setup = replicaSetupOf(entry.dims);
  const R = setup.replicas;
  const ctx: RowContext = {
    config: entryConfigName(entry),
    load: entry.load,
    cancellation: entry.cancellation,
    seed: entry.seed,
    source: 'real',
    calls: entry.calls,
    // Load and utilisation are against the whole service, R pools of workers (as the simulator counts).
    workers: matrix.model.workers * R,
    dims: entry.dims,
    // The simulated row counts hedges on error for such a point; so does this one (NaN: not in the file).
    ...(countsHedgesOnError(entryConfig(entry, matrix), pointModel(matrix.model, entry.dims))
      ? { countsHedgesOnError: true }
      : {}),
  };
  const attempts = existsSync(paths.attempts)
    ? attemptsInModelTime(readAttemptsCsv(paths.attempts), k)
    : null;
  if (entry.dims?.hedger === 'grpc-js' && attempts) learnAttemptsFromServer(calls, attempts);
  const builder = new RowBuilder(ctx);
  const outcomeName = ['ok', 'rejected', 'failed'] as const;
  let okCount = 0;
  let firstIntended = Number.POSITIVE_INFINITY;
  let lastIntended = Number.NEGATIVE_INFINITY;
  const onError = calls.hedgedOnError;
  for (let i = 0; i < calls.n; i++) {
    builder.addCall(
      calls.latencyMs[i],
      outcomeName[calls.outcome[i]],
      calls.attempts[i],
      calls.skipped[i],
      onError === undefined ? Number.NaN : onError[i],
    );
    if (calls.outcome[i] === OUTCOME_CODE.ok) okCount++;
    firstIntended = Math.min(firstIntended, calls.intendedMs[i]);
    lastIntended = Math.max(lastIntended, calls.intendedMs[i]);
  }
  const okLatencies = new Float64Array(okCount);
  for (let i = 0, k = 0; i < calls.n; i++)
    if (calls.outcome[i] === OUTCOME_CODE.ok) okLatencies[k++] = calls.latencyMs[i];
  okLatencies.sort();

  const measured = new Set<number>();
  for (let i = 0; i < calls.n; i++) measured.add(calls.call[i]);
  const busy = attempts ? busyByReplica(paths.attempts, attempts, measured, R) : null;
  const busyMs = busy ? busy.busyMs.reduce((a, b) => a + b, 0) : Number.NaN;
  const spanMs = calls.n > 1 ? lastIntended - firstIntended : 0;
  const workers = ctx.workers;
  let timeline: ServerTimeline | null = null;
  const generatorSamples = statusInflightTimelineMs(status);
  // Each replica records on its own process's clock: one timeline across them would interleave unrelated
  // times, so a replicated point's queue is read from the generator's in-flight samples (one clock).
  if (attempts && R === 1) timeline = serverTimeline(attempts, (c) => measured.has(c));
  else if (generatorSamples.length > 0) timeline = generatorTimeline(generatorSamples, workers);
  const collapse =
    timeline && timeline.length > 0
      ? detectCollapse(
          timeline,
          { startMs: timeline.tMs[0], endMs: timeline.tMs[timeline.length - 1] },
          workers,
        )
      : null;

  const attribution = attempts ? attribute(calls, attempts, status) : null;
  const invalidReasons = [
    ...invalidReasonsOf(status),
    ...fidelityReasons(status, attribution, matrix.fidelity),
  ];
  const stolen = invalidReasons.length > 0 ? stealNote(entry.stealShare) : null;
  if (stolen !== null) invalidReasons.push(stolen);
  const collapseReasons: string[] = [];
  if (status?.summary?.collapsed === true) {
    collapseReasons.push(
      status.summary.collapseReason ?? 'the generator stopped the point at one of its caps',
    );
  }
  if (collapse?.collapsed) {
    collapseReasons.push(
      `${attempts && R === 1 ? 'server records' : 'generator in-flight samples'}: ${collapse.reason}`,
    );
  }

  const row = builder.finish({
    busyMs,
    spanMs,
    collapsed: collapseReasons.length > 0,
    sendLagP99Ms: statusSendLagP99(status),
    valid: invalidReasons.length === 0,
  });
  if (!Number.isFinite(busyMs)) row.utilization = null;
  // A matrix with tied points gives every row its extra work, as the simulated rows have it
  // (contract/points-csv.ts writes the column only then): hedges' losers read against tied copies'.
  if (matrix.configs.some((c) => c.tied !== undefined)) {
    row.extra_service_share = attempts ? extraServiceShare(calls, attempts) : null;
  }
  const config = entryConfig(entry, matrix);
  const tied = tiedFigures(calls, attempts, status, peerCancelCopies(config), k);
  const K = pointClients(entry);
  return {
    row,
    okLatencies,
    calls,
    attempts,
    status,
    invalidReasons,
    collapseReasons,
    timeline,
    collapse,
    attribution,
    clients: K === 1 ? null : clientFigures(calls, status, ctx, K),
    replicas: busy && R > 1 ? replicaUse(busy, matrix.model.workers, spanMs, setup.slowReplica) : null,
    tied,
  };
}

/** The real points.csv row of a point, recomputed from its raw files alone. */
export function realRowFromRaw(runDir: string, entry: ManifestPoint, matrix: Matrix): PointRow {
  return readRealPoint(runDir, entry, matrix).row;
}

/** Why a point's measurement cannot be trusted, from its status; empty when it can. */
function invalidReasonsOf(status: PointStatus | null): string[] {
  if (status === null) return ['no status.json: the generator’s self-check is unknown'];
  const out: string[] = [];
  const s = status.summary;
  if (s?.state === 'failed')
    out.push(`the generator reports the point failed: ${s.error ?? 'no error recorded'}`);
  if (s?.valid !== true) {
    const rs = s?.reasons ?? [];
    out.push(...(rs.length > 0 ? rs : ['the generator did not report the point valid']));
  }
  const dropped = s?.recorder?.dropped ?? 0;
  if (dropped > 0) out.push(`${dropped} records were dropped by the recorder: the sample is incomplete`);
  return out;
}

function filterCalls(c: RawCalls, keep: (i: number) => boolean): RawCalls {
  let m = 0;
  for (let i = 0; i < c.n; i++) if (keep(i)) m++;
  if (m === c.n) return c;
  const idx: number[] = [];
  for (let i = 0; i < c.n; i++) if (keep(i)) idx.push(i);
  const pick = <T extends Float64Array | Uint8Array>(src: T, make: (n: number) => T): T => {
    const out = make(m);
    idx.forEach((j, k) => {
      out[k] = src[j];
    });
    return out;
  };
  const f = (src: Float64Array) => pick(src, (n) => new Float64Array(n));
  return {
    n: m,
    call: f(c.call),
    intendedMs: f(c.intendedMs),
    sendLagMs: f(c.sendLagMs),
    latencyMs: f(c.latencyMs),
    outcome: pick(c.outcome, (n) => new Uint8Array(n)),
    attempts: f(c.attempts),
    skipped: f(c.skipped),
    winner: f(c.winner),
    winnerWrittenMs: f(c.winnerWrittenMs),
    ...(c.hedgedOnError === undefined ? {} : { hedgedOnError: f(c.hedgedOnError) }),
  };
}

// The configuration a manifest entry names, from the matrix (the entry stores its name; older ones the object).
function entryConfig(entry: ManifestPoint, matrix: Matrix): HedgeConfig {
  const name = entryConfigName(entry);
  return matrix.configs.find((c) => c.name === name) ?? { name };
}
