// The percentile hedge delay (`hedge.delay`): the options, their validation and defaults, and the rule
// that turns a rotating histogram of every attempt's latency into the delay in force, cached per slot.
import { ConfigError } from './errors.ts';
import { HEDGE_DELAY_RANGES } from './ranges.ts';
import { checkChoice, checkKnownKeys, checkObject, checkRange } from './validate.ts';
import { WindowedHistogram } from './windowed-histogram.ts';

/** What the delay is while the window holds fewer than minSamples attempts. */
export const DELAY_UNTIL = ['fixed', 'none'] as const;
export type DelayUntil = (typeof DELAY_UNTIL)[number];
/** Cassandra's MIN(Xp, Nms) / MAX(Xp, Nms): the percentile combined with the fixed delayMs. */
export const DELAY_COMBINE = ['min', 'max'] as const;
export type DelayCombine = (typeof DELAY_COMBINE)[number];

/** `hedge.delay` as a user writes it: the hedge delay follows a percentile of recent attempt latencies. */
export interface HedgeDelayOptions {
  /** The percentile, 0 < q < 100 (e.g. 95). */
  percentile: number;
  /** Window of attempts the percentile is taken over, ms (≥ 1000); refreshed every windowMs / 5. */
  windowMs: number;
  /** Attempts the window must hold before its percentile is used (whole number ≥ 1). */
  minSamples: number;
  /** Lower clamp of the percentile, ms (default 0). */
  floorMs?: number;
  /** Upper clamp of the percentile, ms (default none); ≥ floorMs. */
  capMs?: number;
  /** Before minSamples: 'fixed' (default) hedges after delayMs, 'none' sends no timed hedge. */
  until?: DelayUntil;
  /** Once the percentile exists: min or max of it and delayMs (default: the percentile alone). */
  combine?: DelayCombine;
}

/**
 * `hedge.delay` with the defaults filled in. Durations (windowMs, floorMs, capMs) are what a dilated
 * clock scales; capMs undefined = no cap (kept out of the object's numbers so it survives JSON).
 */
export interface HedgeDelaySettings {
  percentile: number;
  windowMs: number;
  minSamples: number;
  floorMs: number;
  capMs: number | undefined;
  until: DelayUntil;
  combine: DelayCombine | undefined;
}

const KNOWN = ['percentile', 'windowMs', 'minSamples', 'floorMs', 'capMs', 'until', 'combine'] as const;

/** Validates `hedge.delay` and fills in its defaults; throws ConfigError naming the field and the fix. */
export function resolveHedgeDelay(o: HedgeDelayOptions, prefix = 'hedge.delay'): HedgeDelaySettings {
  if (typeof o === 'number') {
    // The likeliest slip: a fixed delay written as `delay`. Point at delayMs.
    throw new ConfigError(
      prefix,
      o,
      'must be the percentile rule, an object { percentile, windowMs, minSamples, … }; as a number it is an unknown option',
      `For a fixed delay write delayMs: ${o}.`,
    );
  }
  checkObject(prefix, o, '{ percentile, windowMs, minSamples, floorMs?, capMs?, until?, combine? }');
  checkKnownKeys(prefix, o, KNOWN);
  const R = HEDGE_DELAY_RANGES;
  // These three have no default: a message must not suggest leaving them out.
  const required = (field: 'percentile' | 'windowMs' | 'minSamples', example: string): number => {
    const fix = `It has no default: set it (e.g. ${example}), or drop ${prefix} for the fixed delayMs.`;
    const v = checkRange(`${prefix}.${field}`, o[field], R[field], fix);
    if (v === undefined) throw new ConfigError(`${prefix}.${field}`, v, 'is required', fix);
    return v;
  };
  const percentile = required('percentile', '95 for p95');
  const windowMs = required('windowMs', '10000 for the last 10 s of attempts');
  const minSamples = required('minSamples', '100 attempts before the percentile is used');
  const floorMs = checkRange(`${prefix}.floorMs`, o.floorMs, R.floorMs) ?? 0;
  const capMs = checkRange(`${prefix}.capMs`, o.capMs, R.capMs);
  if (capMs !== undefined && floorMs > capMs) {
    throw new ConfigError(
      `${prefix}.floorMs`,
      floorMs,
      `must be ≤ capMs (${capMs})`,
      'Raise capMs or lower floorMs.',
    );
  }
  return {
    percentile,
    windowMs,
    minSamples,
    floorMs,
    capMs,
    until: checkChoice(`${prefix}.until`, o.until, DELAY_UNTIL) ?? 'fixed',
    combine: checkChoice(`${prefix}.combine`, o.combine, DELAY_COMBINE),
  };
}

/**
 * The delay a HedgePolicy arms its hedge timer with. Every attempt that ends (won, lost, failed or
 * cancelled) is recorded at the time it ended with its duration from its start; at each slot boundary
 * the delay is recomputed from the completed window and cached, so reading it is O(1).
 * Infinity = no timed hedge (until 'none' before minSamples).
 */
export class PercentileDelay {
  readonly settings: Readonly<HedgeDelaySettings>;
  private readonly fixedMs: number;
  private readonly h: WindowedHistogram;
  private current: number;
  private pct = Number.NaN;
  private recorded = 0;

  constructor(settings: HedgeDelaySettings, fixedMs: number) {
    this.settings = settings;
    this.fixedMs = fixedMs;
    this.h = new WindowedHistogram(settings.windowMs);
    this.current = this.fallback();
  }

  /** Records one attempt that ended at `now` after `durationMs`. */
  record(now: number, durationMs: number): void {
    if (this.h.advance(now)) this.refresh();
    this.h.add(durationMs);
    this.recorded++;
  }

  /** The hedge delay in force at `now`, ms (Infinity = no timed hedge). */
  delayAt(now: number): number {
    if (this.h.advance(now)) this.refresh();
    return this.current;
  }

  /** The clamped percentile in force (NaN before the window held minSamples), its sample count, and all recorded. */
  state(now: number): { percentileMs: number; windowSamples: number; recorded: number; delayMs: number } {
    const delayMs = this.delayAt(now);
    return { percentileMs: this.pct, windowSamples: this.h.count, recorded: this.recorded, delayMs };
  }

  private fallback(): number {
    return this.settings.until === 'fixed' ? this.fixedMs : Number.POSITIVE_INFINITY;
  }

  private refresh(): void {
    const s = this.settings;
    if (this.h.count < s.minSamples) {
      this.pct = Number.NaN;
      this.current = this.fallback();
      return;
    }
    let v = this.h.percentile(s.percentile);
    if (v < s.floorMs) v = s.floorMs;
    if (s.capMs !== undefined && v > s.capMs) v = s.capMs;
    this.pct = v;
    this.current =
      s.combine === 'min' ? Math.min(this.fixedMs, v) : s.combine === 'max' ? Math.max(this.fixedMs, v) : v;
  }
}
