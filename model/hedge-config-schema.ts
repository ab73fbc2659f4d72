// The schema of one entry of a matrix's `configs`: a reference configuration's name, or an object with
// `hedge` (or `tied`), `adaptiveLimit` and/or gRPC's `grpcHedging` / `retryThrottling`, bounded by the
// library's ranges.

import { z } from 'zod';
import {
  ADAPTIVE_LIMIT_RANGES,
  DELAY_COMBINE,
  DELAY_UNTIL,
  HEDGE_BUDGET_RANGES,
  HEDGE_DELAY_RANGES,
  HEDGE_RANGES,
  LONE_FAILURE_RULES,
  type OptionRange,
  WINNER_RULES,
} from '../library/index.ts';
import { grpcHedgingSchema, retryThrottlingSchema } from './grpc-hedging-schema.ts';
import { type HedgeConfig, REFERENCE_CONFIGS, referenceConfig } from './hedge-config.ts';
import { issueText, positive } from './schema-messages.ts';
import { TIED_CANCELS } from './tied.ts';

const REF_NAMES = REFERENCE_CONFIGS.map((c) => JSON.stringify(c.name)).join(', ');
/** Longest budget window a matrix may name, ms (the library takes longer ones: a dilated clock's). */
const MAX_WINDOW_MS = 60_000;
/** Names become parts of file names and Redis keys (at most 200 characters with the point's suffix). */
export const MAX_NAME = 100;

// Ranges come from the library (library/ranges.ts), so a matrix the schema accepts is one the library
// accepts; the schema may only be stricter (a hedge delay of 0 is allowed by the library, not here).
const H = HEDGE_RANGES;
const L = ADAPTIVE_LIMIT_RANGES;
/** A number within a library range; `low` says what is wrong below it (the max is always `must be ≤ …`). */
const ranged = (r: OptionRange, low: string) => z.number().min(r.min, low).max(r.max, `must be ≤ ${r.max}`);
const upTo = (max: number) => `must be ≤ ${max}`;
/** One of a list of words; the message names them all. */
const oneOf = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.enum(values, {
    errorMap: () => ({ message: `must be ${values.map((v) => `'${v}'`).join(' or ')} (${what})` }),
  });

const D = HEDGE_DELAY_RANGES;
const B = HEDGE_BUDGET_RANGES;
const WINDOW_TEXT = `must be in ${D.windowMs.min}..${MAX_WINDOW_MS} ms (the window of attempts the percentile is taken over, e.g. 10000)`;

/** `hedge.delay`: the percentile rule (library/percentile-delay.ts). */
const delaySchema = z
  .object({
    percentile: z
      .number({
        required_error: 'is required: the percentile of recent attempt latencies, e.g. 95 for p95',
        invalid_type_error: 'must be a number in (0, 100), e.g. 95 for p95',
      })
      .gt(D.percentile.min, 'must be in (0, 100), e.g. 95 for p95 (0 and 100 are no percentiles)')
      .lt(D.percentile.max, 'must be in (0, 100), e.g. 95 for p95 (0 and 100 are no percentiles)'),
    windowMs: z
      .number({
        required_error: 'is required: the window of attempts the percentile is taken over, ms, e.g. 10000',
        invalid_type_error: WINDOW_TEXT,
      })
      .min(D.windowMs.min, WINDOW_TEXT)
      .max(MAX_WINDOW_MS, WINDOW_TEXT),
    minSamples: z
      .number({
        required_error: 'is required: attempts the window must hold before its percentile is used, e.g. 100',
        invalid_type_error: 'must be a whole number ≥ 1, e.g. 100',
      })
      .int('must be a whole number ≥ 1 (attempts before the percentile is used), e.g. 100')
      .min(
        D.minSamples.min,
        'must be ≥ 1 (attempts the window must hold before its percentile is used), e.g. 100',
      ),
    floorMs: ranged(D.floorMs, 'must be ≥ 0 ms (the lowest delay the percentile may give)').optional(),
    capMs: ranged(D.capMs, 'must be ≥ 0 ms (the highest delay the percentile may give)').optional(),
    until: oneOf(DELAY_UNTIL, 'before minSamples: the fixed delayMs, or no timed hedge').optional(),
    combine: oneOf(
      DELAY_COMBINE,
      'the percentile combined with delayMs; leave out for the percentile alone',
    ).optional(),
  })
  .strict()
  .superRefine((d, ctx) => {
    if (d.capMs !== undefined && (d.floorMs ?? 0) > d.capMs) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['floorMs'],
        message: `${d.floorMs} is above capMs ${d.capMs}; lower floorMs or raise capMs`,
      });
    }
  });

const pushbackFlag = z
  .boolean({ invalid_type_error: 'must be true or false (also honour server pushback)' })
  .optional();

/** `hedge.budget`: the budget's shape (library/budget-shape.ts); ratio fields stay on `hedge` itself. */
const budgetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ratio'), pushback: pushbackFlag }).strict(),
  z
    .object({
      kind: z.literal('concurrency'),
      percent: z
        .number({ invalid_type_error: 'must be a number in (0, 100], e.g. 20' })
        .gt(B.percent.min, 'must be in (0, 100] (hedges in flight as a % of calls in flight), e.g. 20')
        .max(B.percent.max, 'must be in (0, 100] (hedges in flight as a % of calls in flight), e.g. 20')
        .optional(),
      min: ranged(B.min, 'must be ≥ 0 (hedges in flight always allowed), e.g. 3')
        .int('must be a whole number of hedges, e.g. 3')
        .optional(),
      pushback: pushbackFlag,
    })
    .strict(),
  z
    .object({
      kind: z.literal('tokens'),
      maxTokens: z
        .number({
          required_error: 'is required: the bucket size (gRFC A6 maxTokens), e.g. 10',
          invalid_type_error: 'must be a number in (0, 1000], e.g. 10',
        })
        .gt(B.maxTokens.min, 'must be > 0 and ≤ 1000 (the bucket size, gRFC A6 maxTokens), e.g. 10')
        .max(B.maxTokens.max, 'must be > 0 and ≤ 1000 (the bucket size, gRFC A6 maxTokens), e.g. 10'),
      tokenRatio: z
        .number({
          required_error: 'is required: tokens a successful call adds back (gRFC A6 tokenRatio), e.g. 0.1',
          invalid_type_error: 'must be a number > 0, e.g. 0.1',
        })
        .gt(B.tokenRatio.min, 'must be > 0 (tokens a successful call adds back), e.g. 0.1'),
      pushback: pushbackFlag,
    })
    .strict(),
  z.object({ kind: z.literal('pushback') }).strict(),
]);

const hedgeSchema = z
  .object({
    delayMs: positive('hedge delay in ms, e.g. 20').optional(),
    maxAttempts: z
      .number()
      .int('must be a whole number')
      .min(H.maxAttempts.min, `must be ≥ ${H.maxAttempts.min} (1 means no hedge: drop \`hedge\`)`)
      .max(H.maxAttempts.max, upTo(H.maxAttempts.max))
      .optional(),
    budgetPercent: ranged(H.budgetPercent, 'must be ≥ 0 (0 = no budget)').optional(),
    budgetMinHedgesPerSecond: ranged(H.budgetMinHedgesPerSecond, 'must be ≥ 0').optional(),
    budgetWindowMs: z
      .number({ invalid_type_error: 'must be a number (budget window in ms, e.g. 10000)' })
      .min(H.budgetWindowMs.min, `must be in ${H.budgetWindowMs.min}..${MAX_WINDOW_MS} ms`)
      .max(MAX_WINDOW_MS, `must be in ${H.budgetWindowMs.min}..${MAX_WINDOW_MS} ms`)
      .optional(),
    delay: delaySchema.optional(),
    budget: budgetSchema.optional(),
    winner: oneOf(
      WINNER_RULES,
      'which attempt ends the call: the first to succeed, or the first to end',
    ).optional(),
    loneFailure: oneOf(
      LONE_FAILURE_RULES,
      'when the only running attempt fails: wait for the hedge timer, or hedge at once',
    ).optional(),
  })
  .strict();

// Tied requests (model/tied.ts): the gap and copies of their own, the budget as the hedge's.
const tiedSchema = hedgeSchema
  .pick({ budgetPercent: true, budgetMinHedgesPerSecond: true, budgetWindowMs: true })
  .extend({
    copies: z
      .number()
      .int('must be a whole number')
      .min(2, 'must be ≥ 2 (1 copy is a plain call: drop `tied`)')
      .max(H.maxAttempts.max, upTo(H.maxAttempts.max))
      .optional(),
    gapMs: z
      .number({ invalid_type_error: 'must be a number ≥ 0 (ms between the copies; 0 = all at once)' })
      .min(0, 'must be ≥ 0 (ms between the copies; 0 = all at once)'),
    cancel: z
      .enum(TIED_CANCELS, {
        errorMap: () => ({
          message: `use one of ${TIED_CANCELS.join(', ')} (the server that starts a copy cancels the others, or the client cancels the losers)`,
        }),
      })
      .optional(),
  })
  .strict();

const limitSchema = z
  .object({
    initialLimit: positive('starting limit').optional(),
    minLimit: positive('lowest limit').max(L.minLimit.max, upTo(L.minLimit.max)).optional(),
    maxLimit: positive('highest limit').max(L.maxLimit.max, upTo(L.maxLimit.max)).optional(),
    smoothing: z.number().gt(0, 'must be in (0, 1]').max(L.smoothing.max, 'must be in (0, 1]').optional(),
    rttTolerance: z.number().min(L.rttTolerance.min, 'must be ≥ 1').optional(),
    longWindow: ranged(L.longWindow, 'must be a whole number ≥ 1').int().optional(),
    queueSize: ranged(L.queueSize, 'must be ≥ 0').optional(),
    windowed: z.boolean().optional(),
  })
  .strict();

const configObjectSchema = z
  .object({
    name: z
      .string()
      .min(1, 'must be a non-empty name (it labels rows and tables)')
      .max(MAX_NAME, `must be at most ${MAX_NAME} characters (it names files and Redis keys)`),
    hedge: hedgeSchema.optional(),
    adaptiveLimit: limitSchema.optional(),
    grpcHedging: grpcHedgingSchema.optional(),
    retryThrottling: retryThrottlingSchema.optional(),
    tied: tiedSchema.optional(),
  })
  .strict();

/**
 * One entry of `configs`: a reference name or a user's object; checked by hand so an object's errors keep
 * their own field paths.
 */
export const configSchema = z.custom<string | HedgeConfig>().superRefine((v, ctx) => {
  if (typeof v === 'string') {
    if (referenceConfig(v) === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `${JSON.stringify(v)} is not a reference configuration; use one of ${REF_NAMES}, or write an object { name, hedge?, adaptiveLimit? }`,
      });
    }
    return;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `must be a reference configuration name (${REF_NAMES}) or an object { name, hedge?, adaptiveLimit? }`,
    });
    return;
  }
  const r = configObjectSchema.safeParse(v);
  if (!r.success)
    for (const i of r.error.issues) ctx.addIssue({ ...i, message: issueText(i) } as z.IssueData);
});
