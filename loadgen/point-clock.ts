// The clock offset of a point: targetClock − generatorClock measured before the warm-up and after the
// last call, their drift, and the reasons that make the point invalid when either is missing or they
// disagree. With it, server-side times (attempts.csv) go on the generator's timeline: generator abs =
// t0AbsMs + a calls.csv time; target time = generator abs + offset.

import type { LoadSummary } from '../contract/index.ts';
import { type ClockOffset, measureClockOffset } from '../runtime/index.ts';

/** The `clock` field of a point's summary (declared in contract/point-status.ts); null estimates = that measurement failed. */
export type PointClock = NonNullable<LoadSummary['clock']>;

/** One measurement: its estimate, or why there is none (an error code and message). */
export interface ClockReading {
  estimate: ClockOffset | null;
  error: string | null;
}

/** Measures the offset to `target` on `now`; never throws (a failure is a reading with an error). */
export async function readClock(
  target: string,
  now: () => number,
  samples: number,
  timeoutMs: number,
): Promise<ClockReading> {
  try {
    return { estimate: await measureClockOffset({ target, now, samples, timeoutMs }), error: null };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return { estimate: null, error: `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}` };
  }
}

/**
 * The summary's clock field and the reasons it adds: a missing start or end, or a drift larger than
 * `driftBoundMs` plus both uncertainties (what the two intervals allow without any real drift).
 * `end` is null when the point was stopped before it ended or collapsed (no reason added: the point failed,
 * or none of its latencies is compared).
 */
export function pointClock(
  start: ClockReading,
  end: ClockReading | null,
  t0AbsMs: number,
  driftBoundMs: number,
): { clock: PointClock; reasons: string[] } {
  const reasons: string[] = [];
  if (start.error !== null) reasons.push(`clock offset at the start not measured: ${start.error}`);
  if (end?.error) reasons.push(`clock offset at the end not measured: ${end.error}`);
  const a = start.estimate;
  const b = end?.estimate ?? null;
  const driftMs = a !== null && b !== null ? b.offsetMs - a.offsetMs : null;
  if (a !== null && b !== null && driftMs !== null) {
    const allowed = driftBoundMs + a.uncertaintyMs + b.uncertaintyMs;
    if (Math.abs(driftMs) > allowed) {
      reasons.push(
        `clock drift ${driftMs.toFixed(3)} ms over the point exceeds ${driftBoundMs} ms + the uncertainties ${a.uncertaintyMs.toFixed(3)} + ${b.uncertaintyMs.toFixed(3)} ms (--clock-drift-ms)`,
      );
    }
  }
  return { clock: { start: a, end: b, driftMs, t0AbsMs }, reasons };
}
