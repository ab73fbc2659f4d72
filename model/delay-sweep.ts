// The entries of a matrix's delay sweep (`delaysMs`): a fixed delay in ms, as always, or a percentile such
// as "p95", which runs the hedged configuration with the library's percentile delay rule instead. The
// entry itself is the point's `delay_ms` cell (`20`, `p95`), so numeric sweeps keep their keys and slugs.

import { z } from 'zod';
import type { HedgeDelayOptions } from '../library/index.ts';
import type { HedgeOptions } from './hedge-config.ts';
import { positive } from './schema-messages.ts';

/** One entry of `delaysMs`: a fixed hedge delay in ms, or a percentile of recent attempts, e.g. "p95". */
export type DelaySweepEntry = number | string;

/**
 * What a percentile entry runs with, beside its percentile: the last 10 s of attempts; 100 of them before
 * the percentile is used (the p95 of 100 attempts has 5 above it, and at load 0.1 the reference model
 * collects them in under a second), and until then the configuration's own fixed `delayMs`.
 */
export const SWEEP_PERCENTILE_DEFAULTS = Object.freeze({
  windowMs: 10_000,
  minSamples: 100,
  until: 'fixed' as const,
});

const PERCENTILE_TEXT = /^p(\d{1,2}(?:\.\d{1,3})?)$/;

/** The percentile q a sweep entry names ("p95" → 95, "p99.9" → 99.9); undefined for anything else. */
function sweepPercentile(entry: DelaySweepEntry): number | undefined {
  if (typeof entry !== 'string') return undefined;
  const m = PERCENTILE_TEXT.exec(entry);
  if (m === null) return undefined;
  const q = Number(m[1]);
  return q > 0 && q < 100 ? q : undefined;
}

/** The percentile rule a percentile entry runs (SWEEP_PERCENTILE_DEFAULTS around its q). */
function sweepDelayRule(q: number): HedgeDelayOptions {
  return { percentile: q, ...SWEEP_PERCENTILE_DEFAULTS };
}

/**
 * The hedge options of one variant: a number replaces `delayMs` (exactly as before percentile entries
 * existed); a percentile replaces `delay` with its rule and keeps the configuration's `delayMs` for the
 * time before the window holds enough attempts.
 */
export function sweptHedge(hedge: HedgeOptions, entry: DelaySweepEntry): HedgeOptions {
  const q = sweepPercentile(entry);
  if (q === undefined) return { ...hedge, delayMs: entry as number };
  return { ...hedge, delay: sweepDelayRule(q) };
}

const fixedEntry = positive('hedge delay in ms, e.g. 20');

/** The schema of one `delaysMs` entry: a number as before (same messages), or a percentile's text. */
export const delaySweepEntrySchema = z.custom<DelaySweepEntry>().superRefine((v, ctx) => {
  if (typeof v === 'number') {
    const r = fixedEntry.safeParse(v);
    if (!r.success)
      for (const i of r.error.issues) ctx.addIssue({ code: z.ZodIssueCode.custom, message: i.message });
    return;
  }
  if (typeof v === 'string' && sweepPercentile(v) !== undefined) return;
  ctx.addIssue({
    code: z.ZodIssueCode.custom,
    message:
      typeof v === 'string'
        ? `${JSON.stringify(v)} is not a percentile; write "pQ" with 0 < Q < 100 (e.g. "p95", "p99.9") or a delay in ms`
        : 'must be a hedge delay in ms (> 0, e.g. 20) or a percentile such as "p95"',
  });
});
