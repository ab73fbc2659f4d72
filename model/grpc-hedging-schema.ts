// The matrix schema of a configuration hedged by gRPC (gRFC A6): `grpcHedging` and `retryThrottling`, with
// A6's rules in the messages, and the matrix's `transport` list.
import { z } from 'zod';
import { GRPC_STATUS_CODES } from './grpc-hedging.ts';

const NAMES = Object.keys(GRPC_STATUS_CODES).filter((n) => n !== 'OK');

const statusCode = z.union(
  [
    z
      .number()
      .int('must be a whole number')
      .min(1, 'must be 1..16 (OK is not a failure)')
      .max(16, 'must be 1..16'),
    z.string().refine((s) => NAMES.includes(s.toUpperCase()), {
      message: `must be a gRPC status name (${NAMES.join(', ')}) or its number`,
    }),
  ],
  {
    errorMap: () => ({
      message: 'must be a gRPC status code: a number 1..16 or a name such as "UNAVAILABLE"',
    }),
  },
);

/** hedgingPolicy as a configuration writes it (delay in ms). */
export const grpcHedgingSchema = z
  .object({
    maxAttempts: z
      .number({ required_error: 'is required (gRFC A6: attempts per call including the original, ≥ 2)' })
      .int('must be a whole number')
      .min(2, 'must be ≥ 2 (gRFC A6: maxAttempts counts the original attempt; 1 would never hedge)'),
    hedgingDelayMs: z
      .number({ required_error: 'is required (the delay between attempts in ms, e.g. 20; 0 = all at once)' })
      .min(0, 'must be ≥ 0 (gRFC A6: hedgingDelay is a non-negative duration; 0 sends every attempt at once)')
      .max(3_600_000, 'must be ≤ 3600000 ms'),
    nonFatalStatusCodes: z.array(statusCode).optional(),
    throttleHedges: z.boolean().optional(),
  })
  .strict();

/** retryThrottling as a configuration writes it. */
export const retryThrottlingSchema = z
  .object({
    maxTokens: z
      .number({ required_error: 'is required (gRFC A6: the bucket size, in (0, 1000])' })
      .gt(0, 'must be in (0, 1000] (gRFC A6)')
      .max(1000, 'must be in (0, 1000] (gRFC A6)'),
    tokenRatio: z
      .number({ required_error: 'is required (gRFC A6: tokens a success adds, e.g. 0.1)' })
      .gt(0, 'must be > 0 (gRFC A6)')
      .refine((r) => Math.abs(r * 1000 - Math.round(r * 1000)) < 1e-9 * Math.max(1, r * 1000), {
        message: 'must have at most 3 decimal places (gRFC A6), e.g. 0.1 or 0.125',
      }),
  })
  .strict();

/** The matrix's `transport` list. */
export const transportSchema = z
  .array(z.enum(['http1', 'grpc'], { errorMap: () => ({ message: "must be 'http1' or 'grpc'" }) }))
  .min(1, "must list at least one transport: 'http1' and/or 'grpc', or be left out (http1)");

/** A transport of a matrix. */
export type Transport = z.infer<typeof transportSchema>[number];
