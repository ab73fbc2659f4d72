// The dilated clock (docs/time-scale.md): the model has no unit of time of its own, so a point run k times slower
// — every duration × k, every rate ÷ k — goes through the same states, while the harness's own fixed
// milliseconds shrink to 1/k of the model's. This file is the one place that knows what dilates: every
// executor (simulator, target server, load generator) runs `dilatePoint(p)`, and results read wall-clock
// milliseconds back into model milliseconds with `modelMs`. Counts (attempts, budget percent, samples per
// window, tokens) stay as they are; range checks apply to the undilated values the user wrote.

import { resolveHedgeOptions, resolveLimitOptions } from '../library/index.ts';
import { DEFAULT_ERROR_MS, hasFailures } from './attempt-failure.ts';
import type { PointDims } from './dimensions.ts';
import type { HedgeConfig } from './hedge-config.ts';
import type { ModelParams } from './params.ts';
import type { Point } from './point.ts';
import { tiedHedgeOptions } from './tied.ts';
import type { DelayDistribution, TransportParams } from './transport-delays.ts';
import { dilateReplay } from './transport-replay.ts';

/** The largest factor a matrix may ask for (a 10 ms service then takes 10 s a call). */
export const MAX_TIME_SCALE = 1000;
/** The factors `"auto"` chooses from, smallest first. */
export const TIME_SCALE_LADDER = [1, 2, 5, 10, 20] as const;

/** A point's time scale k (1 unless its `timeScale` dimension says more). */
export function timeScaleOf(p: { dims?: PointDims }): number {
  return p.dims?.timeScale ?? 1;
}

/** Milliseconds of wall clock at scale k read as model milliseconds. */
export function modelMs(wallMs: number, k: number): number {
  return k === 1 ? wallMs : wallMs / k;
}

/** Model milliseconds as wall-clock milliseconds at scale k. */
export function wallMs(modelMsValue: number, k: number): number {
  return k === 1 ? modelMsValue : modelMsValue * k;
}

/** The service model with every service time × f (workers, sigma and probabilities stay). */
export function scaleServiceTimes(m: ModelParams, f: number): ModelParams {
  const out: ModelParams = {
    ...m,
    medianMs: m.medianMs * f,
    stragglerMinMs: m.stragglerMinMs * f,
    stragglerMaxMs: m.stragglerMaxMs * f,
  };
  const s = m.service;
  if (s !== undefined)
    out.service =
      s.kind === 'constant'
        ? { kind: 'constant', ms: s.ms * f }
        : { kind: 'exponential', meanMs: s.meanMs * f };
  return out;
}

/**
 * The service model with every duration × k: the clock dilated (workers, sigma and probabilities stay) —
 * service times, a failing attempt's errorMs and the pushback's ms; the pushback's queue bound is a count.
 */
export function dilateModel(m: ModelParams, k: number): ModelParams {
  if (k === 1) return m;
  const out = scaleServiceTimes(m, k);
  if (m.errorMs !== undefined) out.errorMs = m.errorMs * k;
  else if (hasFailures(m)) out.errorMs = DEFAULT_ERROR_MS * k;
  if (m.pushback !== undefined) out.pushback = { queueAbove: m.pushback.queueAbove, ms: m.pushback.ms * k };
  return out;
}

/**
 * A configuration as the wall clock runs it at scale k: the hedge delay and the (ratio) budget window × k,
 * the budget's hedges per second ÷ k, the percentile delay's window, floor and cap × k, Gradient2's window
 * and minimum RTT × k, grpc-js's hedging delay × k, a tied configuration's gap and budget as a hedge's.
 * The library's defaults are filled in first (so they dilate too) and range-checked undilated.
 */
export function dilateConfig(c: HedgeConfig, k: number): HedgeConfig {
  if (k === 1) return c;
  const out: HedgeConfig = { ...c };
  if (c.hedge !== undefined) {
    const r = resolveHedgeOptions(c.hedge);
    out.hedge = { ...c.hedge, delayMs: r.delayMs * k };
    // The ratio fields exist only beside the ratio shape (another shape with them is a ConfigError).
    if (r.budget.kind === 'ratio') {
      out.hedge.budgetWindowMs = r.budgetWindowMs * k;
      out.hedge.budgetMinHedgesPerSecond = r.budgetMinHedgesPerSecond / k;
    }
    const d = c.hedge.delay;
    if (d !== undefined) {
      // The percentile's window and clamps are durations; minSamples is a count and stays.
      out.hedge.delay = { ...d, windowMs: d.windowMs * k };
      if (d.floorMs !== undefined) out.hedge.delay.floorMs = d.floorMs * k;
      if (d.capMs !== undefined) out.hedge.delay.capMs = d.capMs * k;
    }
  }
  if (c.tied !== undefined) {
    const r = resolveHedgeOptions(tiedHedgeOptions(c.tied));
    out.tied = {
      ...c.tied,
      gapMs: c.tied.gapMs * k,
      budgetWindowMs: r.budgetWindowMs * k,
      budgetMinHedgesPerSecond: r.budgetMinHedgesPerSecond / k,
    };
  }
  if (c.adaptiveLimit !== undefined) {
    const r = resolveLimitOptions(c.adaptiveLimit);
    out.adaptiveLimit = { ...c.adaptiveLimit, windowMs: r.windowMs * k, minRttMs: r.minRttMs * k };
  }
  const g = c.grpcHedging;
  if (g !== undefined) out.grpcHedging = { ...g, hedgingDelayMs: g.hedgingDelayMs * k };
  return out;
}

/**
 * The point as the wall clock runs it: its model and configuration dilated by its time scale, so the
 * arrival rate (λ = load · workers / E[S]) falls by k with them. Its key and dimensions are unchanged.
 */
export function dilatePoint(p: Point): Point {
  const k = timeScaleOf(p);
  if (k === 1) return p;
  return { ...p, model: dilateModel(p.model, k), config: dilateConfig(p.config, k) };
}

/** A transport given in model milliseconds, as the wall clock runs it at scale k. */
export function dilateTransport(t: TransportParams, k: number): TransportParams {
  if (k === 1) return t;
  const d = (x: DelayDistribution): DelayDistribution =>
    x.kind === 'constant'
      ? { kind: 'constant', ms: x.ms * k }
      : x.kind === 'lognormal'
        ? { ...x, medianMs: x.medianMs * k }
        : { kind: 'empirical', samplesMs: x.samplesMs.map((v) => v * k) };
  const out: TransportParams = { request: d(t.request), response: d(t.response), cancel: d(t.cancel) };
  if (t.replay !== undefined) out.replay = dilateReplay(t.replay, k);
  return out;
}

/** A `--time-scale` value: "auto", or a number in 1..MAX_TIME_SCALE; null when the text is neither. */
export function parseTimeScale(text: string): number | 'auto' | null {
  const t = text.trim();
  if (t === 'auto') return 'auto';
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  const k = Number(t);
  return k >= 1 && k <= MAX_TIME_SCALE ? k : null;
}

/** What `--time-scale` accepts, for its error message. */
export const TIME_SCALE_FLAG_TEXT = `a time scale k in 1..${MAX_TIME_SCALE} (every duration × k, e.g. 5) or auto`;
